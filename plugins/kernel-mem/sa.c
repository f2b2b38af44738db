// SPDX-License-Identifier: GPL-2.0-or-later
/* The SA table: keyed by destination, SPI and protocol, as the kernel's. */
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mem.h"

static struct mem_sa *sa_new(struct mem_state *st)
{
	if (st->nsa == st->capsa) {
		size_t cap = st->capsa ? st->capsa * 2 : 16;
		struct mem_sa *n = reallocarray(st->sas, cap, sizeof(*n));

		if (!n)
			return NULL;
		st->sas = n;
		st->capsa = cap;
	}
	memset(&st->sas[st->nsa], 0, sizeof(st->sas[0]));
	return &st->sas[st->nsa++];
}

static int not_found(struct ikb_error *err, const struct ikb_addr *dst,
		     uint32_t spi, uint8_t proto)
{
	char a[64];

	return ikb_error_set(err, ENOENT, "no SA dst %s spi 0x%08x proto %u",
			     mem_addr_str(dst, a, sizeof(a)), spi, proto);
}

/* xorshift64: SPIs must not repeat or be predictable, not be secret. */
static uint32_t next_spi(struct mem_state *st)
{
	st->rng ^= st->rng << 13;
	st->rng ^= st->rng >> 7;
	st->rng ^= st->rng << 17;
	return (uint32_t)(st->rng >> 16);
}

int mem_spi_alloc(void *state, const struct ikb_addr *src,
		  const struct ikb_addr *dst, uint8_t proto, uint32_t reqid,
		  uint32_t *spi, struct ikb_error *err)
{
	struct mem_state *st = state;
	struct mem_sa *m;
	uint32_t v;
	int rc = mem_refused(st, MEM_SPI_ALLOC, err);

	if (rc)
		return rc;
	if (proto != IPPROTO_ESP)
		return ikb_error_set(err, EPROTONOSUPPORT,
				     "protocol %u: only ESP (50) is supported",
				     proto);
	/* 1..255 are reserved by IANA (RFC 4303 §2.1); 0 means none. */
	do
		v = next_spi(st);
	while (v < 256 || mem_sa_find(st, dst, v, proto));
	m = sa_new(st);
	if (!m)
		return ikb_error_set(err, ENOMEM, "out of memory");
	/* A larval SA, as XFRM_MSG_ALLOCSPI leaves one for UPDSA to fill. */
	*m = (struct mem_sa){ .larval = true,
			      .sa = { .src = *src,
				      .dst = *dst,
				      .spi = v,
				      .proto = proto,
				      .reqid = reqid,
				      .cpu = -1 } };
	if (mem_index_add(st, m)) {
		st->nsa--;
		return ikb_error_set(err, ENOMEM, "out of memory");
	}
	*spi = v;
	return 0;
}

int mem_sa_add(void *state, struct ikb_sa *sa, struct ikb_error *err)
{
	struct mem_state *st = state;
	struct mem_sa *m;
	char a[64];
	int rc = mem_sa_validate(sa, err);

	if (!rc)
		rc = mem_pcpu_check(st, sa, err);
	if (!rc)
		rc = mem_refused(st, MEM_SA_ADD, err);
	if (rc)
		return rc;
	if (mem_sa_find(st, &sa->dst, sa->spi, sa->proto))
		return ikb_error_set(
			err, EEXIST,
			"SA dst %s spi 0x%08x proto %u already exists",
			mem_addr_str(&sa->dst, a, sizeof(a)), sa->spi,
			sa->proto);
	m = sa_new(st);
	if (!m)
		return ikb_error_set(err, ENOMEM, "out of memory");
	m->sa = *sa;
	m->c.add_time = (uint64_t)time(NULL);
	if (mem_index_add(st, m)) {
		st->nsa--;
		return ikb_error_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

int mem_sa_update(void *state, struct ikb_sa *sa, struct ikb_error *err)
{
	struct mem_state *st = state;
	struct mem_sa *m;
	int rc = mem_sa_validate(sa, err);

	if (!rc)
		rc = mem_pcpu_check(st, sa, err);
	if (!rc)
		rc = mem_refused(st, MEM_SA_UPDATE, err);
	if (rc)
		return rc;
	m = mem_sa_find(st, &sa->dst, sa->spi, sa->proto);
	if (!m)
		return not_found(err, &sa->dst, sa->spi, sa->proto);
	if (m->larval) {
		m->larval = false;
		m->c = (struct ikb_sa_counters){ .add_time =
							 (uint64_t)time(NULL) };
	}
	m->sa = *sa;
	return 0;
}

/* sa_move: as the kernel's, keys and counters stay; no clash allowed */
int mem_sa_move(void *state, const struct ikb_addr *dst, uint32_t spi,
		uint8_t proto, const struct ikb_sa_move *to,
		struct ikb_error *err)
{
	struct mem_state *st = state;
	struct mem_sa *m = mem_sa_find(st, dst, spi, proto);
	struct mem_sa *clash = mem_sa_find(st, &to->dst, spi, proto);

	if (!m)
		return not_found(err, dst, spi, proto);
	if (to->src.family != m->sa.dst.family ||
	    to->dst.family != m->sa.dst.family)
		return ikb_error_set(
			err, EAFNOSUPPORT,
			"SA move: cannot change the address family");
	if (clash && clash != m)
		return ikb_error_set(err, EEXIST,
				     "SA move: an SA with that id exists");
	mem_index_del(st, m); /* its key changes */
	m->sa.src = to->src;
	m->sa.dst = to->dst;
	m->sa.encap_sport = to->encap_sport;
	m->sa.encap_dport = to->encap_dport;
	if (to->sel.src.family != AF_UNSPEC)
		m->sa.sel = to->sel;
	mem_index_add(st, m); /* cannot fail: nsa is as it was */
	return 0;
}

int mem_sa_del(void *state, const struct ikb_addr *dst, uint32_t spi,
	       uint8_t proto, struct ikb_error *err)
{
	struct mem_state *st = state;
	struct mem_sa *m = mem_sa_find(st, dst, spi, proto);

	if (!m)
		return not_found(err, dst, spi, proto);
	mem_sa_remove(st, m);
	return 0;
}

int mem_sa_query(void *state, const struct ikb_addr *dst, uint32_t spi,
		 uint8_t proto, struct ikb_sa_counters *out,
		 struct ikb_error *err)
{
	struct mem_state *st = state;
	struct mem_sa *m = mem_sa_find(st, dst, spi, proto);

	if (!m)
		return not_found(err, dst, spi, proto);
	*out = m->c;
	return 0;
}

MEM_EXPORT unsigned ikb_kernel_mem_larval(void *state);

MEM_EXPORT unsigned ikb_kernel_mem_larval(void *state)
{
	struct mem_state *st = state;
	unsigned n = 0;

	for (size_t i = 0; i < st->nsa; i++)
		n += st->sas[i].larval;
	return n;
}
