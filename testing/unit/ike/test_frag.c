// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IKE fragmentation (RFC 7383) between two engines on a 576-octet path
 * (ike-fragment-size=576): an IKE_AUTH request too large for it goes as
 * SKF fragments that each fit, in either direction, and comes together
 * again whatever the network does to them: reordered, duplicated, lost
 * (the whole set is sent again), corrupted (the fragment fails its
 * integrity check and is not kept), or too late (a set lives 30 s, on a
 * clock the test moves: hclock.h). Forged fragments cost nothing kept,
 * and with fragmentation=no at one end the message goes whole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "harness.h"
#include "hclock.h"
#include "ike/engine.h"
#include "ike/msg/msg.h"

#define SETUP "\tike-fragment-size=576\n"
/* ten ESP proposals: an IKE_AUTH request of some 800 octets */
#define BIG                                                                \
	"\tesp=aes_gcm128,aes_gcm256,aes_gcm192,aes128-sha2_256,"          \
	"aes256-sha2_512,aes128-sha2_512,aes256-sha2_256,aes192-sha2_384," \
	"aes128-sha2_384,aes256-sha2_384\n"
#define FAST "\tretransmit-interval=100ms\n" BIG
#define LIMIT (576 - 20 - 8) /* IPv4 and UDP headers */

static unsigned skf_num(const uint8_t *buf, size_t len)
{
	if (len < 36 || buf[16] != 53) /* Next Payload: SKF */
		return 0;
	return (unsigned)(buf[32] << 8 | buf[33]);
}

static unsigned skf_total(const uint8_t *buf, size_t len)
{
	return skf_num(buf, len) ? (unsigned)(buf[34] << 8 | buf[35]) : 0;
}

static struct net *frag_net(const char *west_conn, const char *east_conn)
{
	harness_west_setup = SETUP;
	return net_new(west_conn, east_conn, SETUP, NULL, NULL);
}

static bool queue_empty(struct net *n)
{
	return n->q == NULL;
}

/* who's IKE_AUTH requests: every datagram SKF and within the path. */
static unsigned auth_fragments(struct net *n, int who)
{
	unsigned frags = 0;

	for (unsigned i = 0; i < n->nrec; i++) {
		const struct hdgram *r = &n->rec[i];

		if (r->from != who || !dgram_is(r->buf, r->len, 35, false))
			continue;
		assert_true(r->len <= LIMIT);
		assert_int_not_equal(skf_num(r->buf, r->len), 0);
		frags++;
	}
	return frags;
}

static const struct ike_frag *frag_of(struct net *n, int who)
{
	const struct ike_sa *sa = n->p[who].e->all;

	assert_non_null(sa);
	return sa->frag;
}

static void up_from(struct net *n, int who)
{
	struct ikb_error err = { "" };

	assert_int_equal(ike_engine_up(n->p[who].e, "test", &err), 0);
	assert_true(net_run(n, both_up, 10000));
}

static void both_directions(int who)
{
	struct net *n = frag_net(BIG, NULL);
	const struct ike_frag *sent, *got;

	up_from(n, who);
	assert_true(auth_fragments(n, who) >= 2);
	sent = frag_of(n, who);
	got = frag_of(n, !who);
	assert_non_null(sent);
	assert_non_null(got);
	assert_int_equal(sent->msgs_out, 1);
	assert_int_equal(got->msgs_in, 1);
	assert_int_equal(got->frags_in, sent->frags_out);
	assert_int_equal(got->dropped, 0);
	assert_null(got->in[0]);
	net_free(n);
}

static void test_fragments_west(void **state)
{
	both_directions(WEST);
}

static void test_fragments_east(void **state)
{
	both_directions(EAST);
}

/* Fragment 1 arrives last, every other one twice. */
struct held {
	uint8_t buf[LIMIT];
	size_t len;
	bool done;
};

static unsigned reorder(struct net *n, int from, unsigned seq,
			const uint8_t *buf, size_t len)
{
	struct held *h = n->filter_ctx;
	unsigned num = skf_num(buf, len);

	if (from != WEST || !num || h->done)
		return 1;
	if (num == 1 && !h->len) {
		memcpy(h->buf, buf, len);
		h->len = len;
		return 0;
	}
	if (num == skf_total(buf, len) && h->len) {
		net_inject(n, EAST, h->buf, h->len); /* after this one */
		h->done = true;
	}
	return 2;
}

static void test_reorder_duplicates(void **state)
{
	struct net *n = frag_net(BIG, NULL);
	struct held h = { .len = 0 };

	n->filter = reorder;
	n->filter_ctx = &h;
	up_from(n, WEST);
	assert_true(h.done);
	assert_int_equal(frag_of(n, EAST)->msgs_in, 1);
	assert_int_equal(frag_of(n, EAST)->dropped, 0);
	assert_false(log_has("retransmitting"));
	net_free(n);
}

/* Fragment 2 is lost once: the whole set goes again. */
static unsigned lose_two(struct net *n, int from, unsigned seq,
			 const uint8_t *buf, size_t len)
{
	bool *lost = n->filter_ctx;

	if (from != WEST || skf_num(buf, len) != 2 || *lost)
		return 1;
	*lost = true;
	return 0;
}

static void test_lost_fragment(void **state)
{
	struct net *n = frag_net(FAST, NULL);
	bool lost = false;

	n->filter = lose_two;
	n->filter_ctx = &lost;
	up_from(n, WEST);
	assert_true(lost);
	assert_true(log_has("retransmitting message 1"));
	assert_int_equal(frag_of(n, EAST)->msgs_in, 1);
	net_free(n);
}

/* Fragment 2 arrives corrupted once: dropped, not kept; the set again. */
static unsigned corrupt_two(struct net *n, int from, unsigned seq,
			    const uint8_t *buf, size_t len)
{
	struct held *h = n->filter_ctx;

	if (from != WEST || skf_num(buf, len) != 2 || h->done)
		return 1;
	memcpy(h->buf, buf, len);
	h->buf[len - 1] ^= 0x55; /* in the ICV */
	net_inject(n, EAST, h->buf, len);
	h->done = true;
	return 0;
}

static void test_corrupt_fragment(void **state)
{
	struct net *n = frag_net(FAST, NULL);
	struct held h = { .len = 0 };

	n->filter = corrupt_two;
	n->filter_ctx = &h;
	up_from(n, WEST);
	assert_true(h.done);
	assert_true(log_has("SKF payload (fragment 2 of "));
	assert_int_equal(frag_of(n, EAST)->dropped, 1);
	assert_int_equal(frag_of(n, EAST)->msgs_in, 1);
	net_free(n);
}

/*
 * Forged fragments for the next request: nothing is kept of a fragment
 * that fails its check, and a Total Fragments over 64 is refused first.
 */
static void test_forged_fragments(void **state)
{
	struct net *n = frag_net(BIG, NULL);
	const struct ike_sa *sa;
	unsigned long kept;
	uint8_t b[200];

	up_from(n, WEST);
	sa = n->p[EAST].e->all;
	kept = sa->frag->frags_in; /* IKE_AUTH's */
	log_wire_drop_rate(100000);
	for (unsigned i = 0; i < 1000; i++) {
		memset(b, (int)i, sizeof(b));
		memcpy(b, sa->spi_i, 8);
		memcpy(b + 8, sa->spi_r, 8);
		b[16] = 53; /* SKF */
		b[17] = 0x20; /* IKEv2 */
		b[18] = 37; /* INFORMATIONAL */
		b[19] = 0x08; /* I: from the initiator, a request */
		b[20] = b[21] = b[22] = 0;
		b[23] = 2; /* the next Message ID */
		b[24] = b[25] = 0;
		b[26] = sizeof(b) >> 8;
		b[27] = sizeof(b) & 0xff;
		b[28] = 0; /* the first inner payload: none */
		b[29] = 0;
		b[30] = (sizeof(b) - 28) >> 8;
		b[31] = (sizeof(b) - 28) & 0xff;
		b[32] = 0;
		b[33] = (uint8_t)(1 + i % 60);
		b[34] = 0;
		b[35] = i == 999 ? 65 : 60;
		net_inject(n, EAST, b, sizeof(b));
	}
	assert_true(net_run(n, queue_empty, 5000));
	assert_null(sa->frag->in[0]);
	assert_int_equal(sa->frag->frags_in, kept);
	assert_int_equal(sa->frag->dropped, 1000);
	assert_true(log_has("integrity"));
	assert_true(log_has("Total Fragments exceeds the 64"));
	log_wire_drop_rate(50);
	net_free(n);
}

/*
 * West's request msgid, an INFORMATIONAL of Vendor ID payloads of vlen
 * octets each (the engine answers it empty), sealed as nfrag fragments
 * with west's keys, as a peer holding the SA sends them; fragments
 * first + 1 to last (of nfrag) are put to east.
 */
static void frags_some(struct net *n, uint32_t msgid, unsigned nvid,
		       size_t vlen, unsigned nfrag, unsigned first,
		       unsigned last)
{
	struct ike_sa *w = n->p[WEST].e->all;
	size_t len = nvid * (4 + vlen), per = (len + nfrag - 1) / nfrag;
	uint8_t *pt = calloc(1, len);
	struct wire_hdr hdr = { 0 };

	assert_non_null(pt);
	for (unsigned i = 0; i < nvid; i++) {
		uint8_t *p = pt + i * (4 + vlen);

		p[0] = i + 1 < nvid ? WIRE_PT_VID : 0;
		p[2] = (uint8_t)((4 + vlen) >> 8);
		p[3] = (uint8_t)(4 + vlen);
	}
	memcpy(hdr.spi_i, w->spi_i, 8);
	memcpy(hdr.spi_r, w->spi_r, 8);
	hdr.exchange = WIRE_EXCH_INFORMATIONAL;
	hdr.flags = WIRE_FLAG_I;
	hdr.msgid = msgid;
	for (unsigned k = first; k < last; k++) {
		size_t off = k * per, l = off + per > len ? len - off : per;
		struct wbuf out;

		wbuf_init(&out, 0);
		assert_int_equal(msg_seal(w, &hdr, k ? 0 : WIRE_PT_VID,
					  pt + off, l, (uint16_t)(k + 1),
					  (uint16_t)nfrag, &out),
				 0);
		net_inject(n, EAST, out.data, out.len);
		wbuf_free(&out);
	}
	free(pt);
}

/* The whole message msgid, all nfrag fragments. */
static void informational_frags(struct net *n, uint32_t msgid, unsigned nvid,
				size_t vlen, unsigned nfrag)
{
	frags_some(n, msgid, nvid, vlen, nfrag, 0, nfrag);
}

/*
 * The 64 KiB a reassembled message may have (FRAG_BYTES_MAX), with a
 * peer's real keys: 60,000 octets in 50 fragments are taken, 70,000 in
 * 60 are dropped when the fragment past 64 KiB comes, and the SA stays.
 */
static void test_fragment_bytes_cap(void **state)
{
	struct net *n = frag_net(BIG, NULL);
	const struct ike_frag *got;
	unsigned long msgs;
	uint32_t id;

	up_from(n, WEST);
	got = frag_of(n, EAST);
	msgs = got->msgs_in;
	id = n->p[WEST].e->all->next_req_msgid;
	informational_frags(n, id, 2, 30000 - 4, 50);
	assert_true(net_run(n, queue_empty, 5000));
	assert_int_equal(got->msgs_in, msgs + 1);
	assert_false(log_has("would exceed 64 KiB"));

	log_wire_drop_rate(100000); /* the line, whatever ran before */
	informational_frags(n, id + 1, 2, 35000 - 4, 60);
	assert_true(net_run(n, queue_empty, 5000));
	log_wire_drop_rate(50);
	assert_int_equal(got->msgs_in, msgs + 1);
	assert_true(log_has(
		"the message would exceed 64 KiB: its fragments are dropped"));
	assert_int_equal(ike_sa_count(n, EAST, "established"), 1);
	net_free(n);
}

/*
 * A set that has not come together 30 s (FRAG_SET_MS) after its first
 * fragment is dropped when the next one comes: 29 s on, the last
 * fragment still completes the message; 31 s on, it starts a set of its
 * own, and the message is taken once the whole set comes again.
 */
static void test_fragment_set_lifetime(void **state)
{
	struct net *n = frag_net(BIG, NULL);
	const struct ike_frag *got;
	unsigned long msgs;
	uint32_t id;

	up_from(n, WEST);
	got = frag_of(n, EAST);
	msgs = got->msgs_in;
	id = n->p[WEST].e->all->next_req_msgid;
	frags_some(n, id, 4, 300, 4, 0, 3);
	assert_true(net_run(n, queue_empty, 5000));
	assert_non_null(got->in[0]);
	hclock_skip(n->base, 29000);
	frags_some(n, id, 4, 300, 4, 3, 4);
	assert_true(net_run(n, queue_empty, 5000));
	assert_int_equal(got->msgs_in, msgs + 1);
	assert_null(got->in[0]);

	frags_some(n, id + 1, 4, 300, 4, 0, 3);
	assert_true(net_run(n, queue_empty, 5000));
	hclock_skip(n->base, 31000);
	frags_some(n, id + 1, 4, 300, 4, 3, 4);
	assert_true(net_run(n, queue_empty, 5000));
	assert_int_equal(got->msgs_in, msgs + 1);
	assert_non_null(got->in[0]); /* the last fragment alone */
	informational_frags(n, id + 1, 4, 300, 4);
	assert_true(net_run(n, queue_empty, 5000));
	assert_int_equal(got->msgs_in, msgs + 2);
	assert_null(got->in[0]);
	assert_int_equal(ike_sa_count(n, EAST, "established"), 1);
	net_free(n);
}

/* fragmentation=no at east: west sends its request whole. */
static void test_fragmentation_no(void **state)
{
	struct net *n = frag_net(BIG, BIG "\tfragmentation=no\n");
	bool whole = false;

	up_from(n, WEST);
	for (unsigned i = 0; i < n->nrec; i++)
		if (n->rec[i].from == WEST &&
		    dgram_is(n->rec[i].buf, n->rec[i].len, 35, false)) {
			assert_int_equal(skf_num(n->rec[i].buf, n->rec[i].len),
					 0);
			whole = n->rec[i].len > LIMIT;
		}
	assert_true(whole);
	assert_null(frag_of(n, WEST));
	net_free(n);
}

static int teardown(void **state)
{
	harness_west_setup = NULL;
	return net_cleanup(state);
}

/* who's IKE_AUTH request datagrams, and the largest of them */
static unsigned auth_datagrams(struct net *n, int who, size_t *largest)
{
	unsigned c = 0;

	*largest = 0;
	for (unsigned i = 0; i < n->nrec; i++) {
		const struct hdgram *r = &n->rec[i];

		if (r->from != who || !dgram_is(r->buf, r->len, 35, false))
			continue;
		c++;
		*largest = r->len > *largest ? r->len : *largest;
	}
	return c;
}

/*
 * Without ike-fragment-size= the path MTU decides: a 1500-octet path
 * carries the IKE_AUTH request whole; one whose MTU nobody knows gets
 * RFC 7383's 576 octets, and so fragments.
 */
static void test_path_mtu(void **state)
{
	struct net *n;
	size_t largest;

	harness_west_setup = NULL;
	n = net_new(BIG, NULL, NULL, NULL, NULL);
	n->path_mtu = 1500;
	up_from(n, WEST);
	assert_int_equal(auth_datagrams(n, WEST, &largest), 1);
	assert_true(largest > LIMIT && largest <= 1500 - 28);
	assert_int_equal(frag_of(n, WEST)->msgs_out, 0);
	net_free(n);

	n = net_new(BIG, NULL, NULL, NULL, NULL);
	up_from(n, WEST);
	assert_true(auth_datagrams(n, WEST, &largest) >= 2);
	assert_true(largest <= LIMIT);
	net_free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_fragments_west, teardown),
		cmocka_unit_test_teardown(test_fragments_east, teardown),
		cmocka_unit_test_teardown(test_reorder_duplicates, teardown),
		cmocka_unit_test_teardown(test_lost_fragment, teardown),
		cmocka_unit_test_teardown(test_corrupt_fragment, teardown),
		cmocka_unit_test_teardown(test_forged_fragments, teardown),
		cmocka_unit_test_teardown(test_fragment_bytes_cap, teardown),
		cmocka_unit_test_teardown(test_fragment_set_lifetime, teardown),
		cmocka_unit_test_teardown(test_fragmentation_no, teardown),
		cmocka_unit_test_teardown(test_path_mtu, teardown),
	};

	harness_global_init();
	return cmocka_run_group_tests_name("ike-frag", tests, NULL, NULL);
}
