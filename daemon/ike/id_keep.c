// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The IDs an IKE SA keeps for its life (struct ike_sa_id, ike_sa.h): a
 * struct ike_id is 568 bytes, sized for the longest ID there can be,
 * and an IKE SA held two of them; the IDs of almost every SA are an
 * address or a name of a few bytes (issue 21, item 3: memory per SA).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ike/ike_sa.h"

int ike_sa_id_set(struct ike_sa_id *to, const struct ike_id *from)
{
	size_t tlen = strnlen(from->text, sizeof(from->text) - 1);
	size_t dlen =
		from->len < sizeof(from->data) ? from->len : sizeof(from->data);
	char *mem = malloc(dlen + tlen + 1);

	if (!mem)
		return -ENOMEM;
	memcpy(mem, from->data, dlen);
	memcpy(mem + dlen, from->text, tlen);
	mem[dlen + tlen] = '\0';
	ike_sa_id_free(to);
	to->mem = mem;
	to->type = from->type;
	to->len = (uint8_t)dlen;
	return 0;
}

int ike_sa_id_copy(struct ike_sa_id *to, const struct ike_sa_id *from)
{
	size_t n = from->len + strlen(ike_sa_id_text(from)) + 1;
	char *mem = from->mem ? malloc(n) : NULL;

	if (from->mem && !mem)
		return -ENOMEM;
	if (mem)
		memcpy(mem, from->mem, n);
	ike_sa_id_free(to);
	to->mem = mem;
	to->type = from->type;
	to->len = from->len;
	return 0;
}

void ike_sa_id_get(const struct ike_sa_id *id, struct ike_id *out)
{
	const char *text = ike_sa_id_text(id);

	memset(out, 0, sizeof(*out));
	out->type = id->type;
	out->len = id->len;
	if (id->mem)
		memcpy(out->data, id->mem, id->len);
	snprintf(out->text, sizeof(out->text), "%s", text);
}

const char *ike_sa_id_text(const struct ike_sa_id *id)
{
	return id->mem ? id->mem + id->len : "";
}

const uint8_t *ike_sa_id_data(const struct ike_sa_id *id)
{
	return (const uint8_t *)id->mem;
}

void ike_sa_id_free(struct ike_sa_id *id)
{
	free(id->mem);
	id->mem = NULL;
	id->type = 0;
	id->len = 0;
}
