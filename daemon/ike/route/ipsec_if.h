/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The XFRM interfaces of ipsec-interface= (ipsecN, if_id N): made when
 * the first conn naming N is loaded, as libreswan adds the device when it
 * adds the conn, shared by every conn naming N, and deleted with the last
 * of them (a reload that drops it, or the end) when we made it. Not for
 * use outside daemon/ike/.
 */
#ifndef IKB_IKE_IPSEC_IF_H
#define IKB_IKE_IPSEC_IF_H

#include <stdint.h>

struct ike_engine;
struct json_object;

/* libreswan's if_id of ipsec0: the kernel refuses if_id 0. */
#define XFRMI_IF_ID_ZERO 16384u
/* "ipsec" and ten digits, with the NUL: an interface name's room */
#define IPSEC_IF_NAME_MAX 16

/* ipsecN of if_id; XFRMI_IF_ID_ZERO is ipsec0. */
void ipsec_if_name(uint32_t if_id, char name[IPSEC_IF_NAME_MAX]);
/* After a (re)load: the interfaces of the new conns held, others let go. */
void ipsec_ifs_sync(struct ike_engine *e);
/* Every interface let go, at the end. */
void ipsec_ifs_free(struct ike_engine *e);
/* For status: [{name, if_id, conns, created}]. */
struct json_object *ipsec_ifs_status(const struct ike_engine *e);

#endif
