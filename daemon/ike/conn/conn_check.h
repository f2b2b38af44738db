/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `ikebana checkconfig`'s look at the certificates of a configuration,
 * in the NSS database the daemon would open (nssdb_open). The engine
 * loads leftcert= as it does when it compiles a conn (conn_auth.c), but
 * on both ends: checkconfig cannot know which end is this host.
 */
#ifndef IKB_IKE_CONN_CHECK_H
#define IKB_IKE_CONN_CHECK_H

#include <stdbool.h>

struct cfg;
struct ikb_diag;

/* Whether a conn (not auto=ignore) names a certificate. */
bool conn_check_wants_certs(const struct cfg *cfg);

/*
 * For each conn, each leftcert=/rightcert=: the nickname is in the
 * database, its key fits the end's authby=/leftauth=, leftid= is in it,
 * and it is valid now (a warning if not); and one end's private key is
 * here. An end's private key is a note; keys false (the database is
 * locked) skips them. dir is the open database's directory, for the
 * messages. Each problem goes to d at the file:line of its key.
 */
void conn_check_certs(const struct cfg *cfg, const char *dir, bool keys,
		      struct ikb_diag *d);

#endif
