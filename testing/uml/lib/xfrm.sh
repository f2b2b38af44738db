# Reading the kernel's SAD: one line of key=value words per ESP SA.
# shellcheck shell=sh

# sa_list HOST: for each SA in `ip -s xfrm state` of HOST, prints
#   src=A dst=B spi=0x.. mode=transport alg=aes_gcm128 replay=2048 esn=1
#   encap=none|espinudp bytes=N packets=N dir=in|out
# alg uses libreswan's names (aes_gcm128, aes128-sha2_256, chacha20_poly1305,
# null-aes_xcbc, 3des-sha1, aes_ctr256-sha1).
# replay is the window the kernel enforces: the ESN context's replay_window
# when there is one, else the legacy field (BASELINES 14). dir is in when dst
# is one of HOST's addresses (listed by topology in $HOSTS/HOST/local).
sa_list() {
	ip -n "$1" -s xfrm state | awk -v lf="$HOSTS/$1/local" '
	function flush() {
		if (spi == "") return
		if (alg == "" && enc != "") alg = enc (integ == "" ? "" : "-" integ)
		dir = (dst in local) ? "in" : "out"
		printf "src=%s dst=%s spi=%s mode=%s alg=%s replay=%s esn=%s encap=%s bytes=%s packets=%s dir=%s\n",
		       src, dst, spi, mode, alg, replay, esn, encap, bytes, packets, dir
		spi = ""
	}
	BEGIN { while ((getline l < lf) > 0) local[l] = 1 }
	function keybits(s,   b) { b = s; gsub(/[()]/, "", b); return b + 0 }
	/^src / { flush(); src = $2; dst = $4; alg = enc = integ = ""; esn = 0; encap = "none"
		  replay = 0; bytes = packets = 0; stats = 0; next }
	$1 == "stats:" { stats = 1; next }
	stats { next }
	$1 == "proto" { if ($2 != "esp") { src = ""; next }; spi = $4; sub(/\(.*/, "", spi); mode = $NF
		  for (i = 1; i <= NF; i++) if ($i == "mode") mode = $(i + 1) }
	$1 == "replay-window" { replay = $2; if (/flag.* esn/) esn = 1 }
	$1 == "aead" { n = keybits($4) - 32
		  if ($2 ~ /gcm\(aes\)/) alg = "aes_gcm" n
		  else if ($2 ~ /chacha20/) alg = "chacha20_poly1305"
		  else alg = $2 }
	$1 == "enc" { n = keybits($4)
		  if ($2 == "cbc(aes)") enc = "aes" n
		  else if ($2 ~ /ctr\(aes\)/) enc = "aes_ctr" (n - 32)
		  else if ($2 ~ /cipher_null/) enc = "null"
		  else if ($2 ~ /des3_ede/) enc = "3des"
		  else enc = $2 }
	$1 == "auth-trunc" || $1 == "auth" { a = $2
		  if (a == "xcbc(aes)") a = "aes_xcbc"
		  sub(/^hmac\(/, "", a); sub(/\)$/, "", a)
		  sub(/^sha256$/, "sha2_256", a); sub(/^sha384$/, "sha2_384", a)
		  sub(/^sha512$/, "sha2_512", a); integ = a }
	$1 == "encap" { encap = $3 }
	$1 == "replay_window" { replay = $2; sub(",", "", replay) }
	/^\t  [0-9]+\(bytes\), [0-9]+\(packets\)/ { b = $1; p = $2; sub(/\(.*/, "", b); sub(/\(.*/, "", p)
		  bytes = b; packets = p }
	END { flush() }'
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
	ip -n "$1" -s xfrm state list ${2:+spi "$2"} | awk '
	function flush() {
		if (s != "") printf "spi=%s window=%d bmp=%d esn=%d replay=%d outside=%d failed=%d packets=%d legacy=%d\n",
			s, w, b, e, r, o, f, p, l
		s = ""; w = b = e = r = o = f = p = st = l = 0
	}
	/^src / { flush(); next }
	$1 == "proto" { s = $4; sub(/\(.*/, "", s) }
	$1 == "stats:" { st = 1; next }
	st && $1 == "replay-window" { o = $2; r = $4; f = $6; next }
	$1 == "replay-window" { w = l = $2; if (/flag.* esn/) e = 1 }
	$1 == "replay_window" { w = $2; sub(",", "", w); b = $4 }
	/^\t  [0-9]+\(bytes\), [0-9]+\(packets\)/ { p = $2; sub(/\(.*/, "", p) }
	END { flush() }'
}
