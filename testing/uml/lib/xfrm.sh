# Reading the kernel's SAD: one line of key=value words per ESP SA.
# shellcheck shell=sh

# SAD_AWK: the one reader of `ip -s xfrm state` (sa_list and sa_replay
# here, the benches' xfrm_norm and _snap). A caller appends its own
# function flush(), which prints the SA just read; flush() runs before each
# SA and at the end, with spi "" before the first. Per SA the rules set:
#   src dst proto spi reqid mode   the SA's id (spi 0x..)
#   flags esn                      the flag words; esn 1 when ESN is on
#   window legacy bmp              the window the kernel enforces: the ESN
#                                  context's replay_window when the SA has
#                                  one, else the legacy u8 field (BASELINES
#                                  14); that field itself; the context's
#                                  bitmap words (0: no context)
#   aead aead_bits enc enc_bits auth   algorithm names and key bits
#   algs                           the algorithm and encap lines, in ip's words
#   encap                          the encapsulation type, or none
#   sel port                       the selector, and its sport or dport (0: none)
#   life                           "time-soft S limit time-hard H" (configured)
#   bytes packets                  what the SA processed
#   outside replays failed         dropped: older than the window, replays, ICV
# shellcheck disable=SC2016 # awk's $, not the shell's
SAD_AWK='
function keybits(s,   b) { b = s; gsub(/[()]/, "", b); return b + 0 }
function sad_reset() {
	src = dst = proto = spi = reqid = mode = flags = sel = life = algs = ""
	aead = enc = auth = ""; aead_bits = enc_bits = 0; encap = "none"; esn = 0
	window = legacy = bmp = port = bytes = packets = outside = replays = failed = stats = 0
}
/^src / { flush(); sad_reset(); src = $2; dst = $4; next }
$1 == "stats:" { stats = 1; next }
stats && $1 == "replay-window" { outside = $2; replays = $4; failed = $6; next }
stats { next }
$1 == "proto" { proto = $2; spi = $4; sub(/\(.*/, "", spi); reqid = $6; sub(/\(.*/, "", reqid)
	mode = $NF; for (i = 1; i <= NF; i++) if ($i == "mode") mode = $(i + 1) }
$1 == "replay-window" { window = legacy = $2; if (/flag.* esn/) esn = 1
	for (i = 1; i <= NF; i++) if ($i == "flag")
		for (j = i + 1; j <= NF && $j !~ /^\(/; j++) flags = flags (flags == "" ? "" : " ") $j }
$1 == "replay_window" { window = $2; sub(",", "", window); bmp = $4 }
$1 == "aead" { aead = $2; aead_bits = keybits($4); algs = algs " aead " $2 " " $3 " " $NF }
$1 == "enc" { enc = $2; enc_bits = keybits($4); algs = algs " enc " $2 " " $3 }
$1 == "auth" { auth = $2; algs = algs " auth " $2 " " $3 }
$1 == "auth-trunc" { auth = $2; algs = algs " auth-trunc " $2 " " $3 " " $NF }
$1 == "encap" { encap = $3; algs = algs " encap " $2 " " $3 " " $4 " " $5 }
$1 == "sel" { for (i = 2; i <= NF && $i != "uid"; i++) sel = sel (sel == "" ? "" : " ") $i
	for (i = 2; i < NF; i++) if ($i == "sport" || $i == "dport") port = $(i + 1) }
$1 == "expire" && $2 == "add:" { s = $4; h = $6; sub(/\(.*/, "", s); sub(/\(.*/, "", h)
	life = "time-soft " s " limit time-hard " h }
/^\t  [0-9]+\(bytes\), [0-9]+\(packets\)/ { bytes = $1; sub(/\(.*/, "", bytes)
	packets = $2; sub(/\(.*/, "", packets) }
END { flush() }
'

# sa_list HOST: for each ESP SA in `ip -s xfrm state` of HOST, prints
#   src=A dst=B spi=0x.. mode=transport alg=aes_gcm128 replay=2048 esn=1
#   encap=none|espinudp bytes=N packets=N dir=in|out
# alg uses libreswan's names (aes_gcm128, aes128-sha2_256, chacha20_poly1305,
# null-aes_xcbc, 3des-sha1, aes_ctr256-sha1).
# replay is the window the kernel enforces (SAD_AWK's window). dir is in
# when dst is one of HOST's addresses (listed by topology in
# $HOSTS/HOST/local).
sa_list() {
	ip -n "$1" -s xfrm state | awk -v lf="$HOSTS/$1/local" "$SAD_AWK"'
	BEGIN { while ((getline l < lf) > 0) local[l] = 1 }
	function integ_name(a) {
		if (a == "xcbc(aes)") a = "aes_xcbc"
		sub(/^hmac\(/, "", a); sub(/\)$/, "", a)
		sub(/^sha256$/, "sha2_256", a); sub(/^sha384$/, "sha2_384", a)
		sub(/^sha512$/, "sha2_512", a)
		return a
	}
	function enc_name(e, n) {
		if (e == "cbc(aes)") return "aes" n
		if (e ~ /ctr\(aes\)/) return "aes_ctr" (n - 32)
		if (e ~ /cipher_null/) return "null"
		if (e ~ /des3_ede/) return "3des"
		return e
	}
	function alg_name() {
		if (aead ~ /gcm\(aes\)/) return "aes_gcm" (aead_bits - 32)
		if (aead ~ /chacha20/) return "chacha20_poly1305"
		if (aead != "") return aead
		if (enc == "") return ""
		return enc_name(enc, enc_bits) (auth == "" ? "" : "-" integ_name(auth))
	}
	function flush() {
		if (spi == "" || proto != "esp") return
		printf "src=%s dst=%s spi=%s mode=%s alg=%s replay=%s esn=%s encap=%s bytes=%s packets=%s dir=%s\n",
		       src, dst, spi, mode, alg_name(), window, esn, encap, bytes, packets,
		       ((dst in local) ? "in" : "out")
	}'
}

# sa_match HOST KEY=VALUE...: the SAs of sa_list whose fields all match.
sa_match() {
	_h=$1; shift
	sa_list "$_h" | awk -v want="$*" '
	BEGIN { n = split(want, w, " ") }
	{ for (i = 1; i <= n; i++) if (index(" " $0 " ", " " w[i] " ") == 0) next; print }'
}

# sa_count HOST KEY=VALUE...
sa_count() { sa_match "$@" | wc -l; }

# esp_inout HOST: "IN OUT", ESP packets summed over HOST's inbound and
# outbound SAs.
esp_inout() {
	sa_list "$1" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^packets=/) p = substr($i, 9)
		s[$NF] += p } END { print s["dir=in"] + 0, s["dir=out"] + 0 }'
}

# esp_packets HOST [KEY=VALUE...]: packets summed over the matching SAs.
esp_packets() {
	sa_match "$@" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^packets=/) s += substr($i, 9) }
		END { print s + 0 }'
}

# sa_replay HOST [SPI]: the replay state of each of HOST's SAs (of SPI
# only, 0x...), one line each:
#   spi=0x.. window=N bmp=M esn=0|1 replay=R outside=O failed=F packets=P legacy=L
# window and bmp (bitmap words) come from the SA's ESN replay context
# (XFRMA_REPLAY_ESN_VAL) when it has one, else window is the legacy field
# and bmp=0; legacy is the legacy u8 field itself. replay, outside (older
# than the window) and failed (ICV) count the packets the kernel dropped;
# packets counts those it accepted.
sa_replay() {
	ip -n "$1" -s xfrm state list ${2:+spi "$2"} | awk "$SAD_AWK"'
	function flush() {
		if (spi != "") printf "spi=%s window=%d bmp=%d esn=%d replay=%d outside=%d failed=%d packets=%d legacy=%d\n",
			spi, window, bmp, esn, replays, outside, failed, packets, legacy
	}'
}
