// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trafficstatus as text: one line per Child SA, libreswan's order (conn,
 * serial) with strongSwan's packets and idle time. Apart from the rest of
 * the subcommand so that tests can check the line without a daemon.
 */
#include <inttypes.h>
#include <stdio.h>
#include <json-c/json.h>

#include "cli/cli.h"

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return "-";
	return json_object_get_string(v);
}

static uint64_t u64(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return 0;
	return json_object_get_uint64(v);
}

/* "in 0xc1234567 1234 bytes 10 packets", or why there are no numbers. */
static void print_dir(FILE *f, struct json_object *c, const char *dir,
		      const char *spi_key)
{
	struct json_object *d;

	if (!json_object_object_get_ex(c, dir, &d) || !d) {
		fprintf(f, "%s not installed", dir);
		return;
	}
	fprintf(f, "%s 0x%s ", dir, str(c, spi_key));
	if (json_object_object_get_ex(d, "error", NULL))
		fprintf(f, "error: %s", str(d, "error"));
	else
		fprintf(f, "%" PRIu64 " bytes %" PRIu64 " packets",
			u64(d, "bytes"), u64(d, "packets"));
}

/* "1h 2m 3s", the largest unit first, zero units left out. */
static void print_span(FILE *f, int64_t s)
{
	const char *sep = "";

	if (s >= 86400) {
		fprintf(f, "%" PRId64 "d", s / 86400);
		sep = " ";
	}
	if (s % 86400 >= 3600) {
		fprintf(f, "%s%" PRId64 "h", sep, s / 3600 % 24);
		sep = " ";
	}
	if (s % 3600 >= 60) {
		fprintf(f, "%s%" PRId64 "m", sep, s / 60 % 60);
		sep = " ";
	}
	if (s % 60 || !*sep)
		fprintf(f, "%s%" PRId64 "s", sep, s % 60);
}

static void print_child(FILE *f, struct json_object *c)
{
	struct json_object *idle;

	fprintf(f, "\"%s\" #%" PRIu64 ", reqid %" PRIu64 ": %s %s %s, ",
		str(c, "conn"), u64(c, "ike_serial"), u64(c, "reqid"),
		str(c, "proto"), str(c, "mode"), str(c, "alg"));
	print_dir(f, c, "in", "spi_in");
	fprintf(f, ", ");
	print_dir(f, c, "out", "spi_out");
	if (json_object_object_get_ex(c, "idle_s", &idle) && idle) {
		fprintf(f, ", idle ");
		print_span(f, json_object_get_int64(idle));
	} else {
		fprintf(f, ", never used");
	}
	fprintf(f, ", id '%s'\n", str(c, "remote_id"));
}

void traffic_print(FILE *f, struct json_object *data)
{
	struct json_object *a;

	if (!json_object_object_get_ex(data, "child_sas", &a) ||
	    !json_object_is_type(a, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(a); i++)
		print_child(f, json_object_array_get_idx(a, i));
}
