# Reading a namespace's SAs and policies back as `ip xfrm` commands (inside
# UML, as root: the keys are shown). For testing/bench/negotiated-vs-manual:
# what a daemon negotiated, set again by hand. Sourced after lib/all.sh
# (its SAD_AWK reads the SAs).
# shellcheck shell=sh

# xfrm_norm HOST: one line per SA of HOST, the fields that decide how a
# packet is processed, keys included, in a form that does not depend on
# how the SA was added: the replay window is the one the kernel enforces
# (SAD_AWK's window, lib/xfrm.sh), lifetimes are the configured ones.
# Sorted. Fields are separated by '|'.
xfrm_norm() {
	ip -n "$1" -s xfrm state | awk "$SAD_AWK"'
	function flush() {
		if (spi == "") return
		printf "src %s dst %s proto %s spi %s reqid %s mode %s|flag %s|replay-window %s|%s|sel %s|limit %s\n",
		       src, dst, proto, spi, reqid, mode, flags, window, algs, sel, life
	}' | sort
}

# xfrm_state_batch: xfrm_norm lines on stdin, `ip -b` lines out (the
# flag list, when empty, and the key words are dropped or kept as ip
# wants them).
xfrm_state_batch() {
	awk -F'|' '{
		printf "xfrm state add %s", $1
		if ($2 != "flag ") printf " %s", $2
		printf " %s%s sel %s", $3, $4, substr($5, 5)
		if ($6 != "limit ") printf " %s", $6
		printf "\n"
	}'
}

# xfrm_policy_batch HOST: HOST's policies as `ip -b` lines, without the
# per-socket bypass policies (they belong to the daemon's sockets).
xfrm_policy_batch() {
	ip -n "$1" xfrm policy | awk '
	function flush() {
		if (dir != "") printf "xfrm policy add %s dir %s priority %s%s\n", sel, dir, prio, tmpl
		dir = ""
	}
	/^src / { flush(); sel = $0; sub(/[ \t]+$/, "", sel); tmpl = ""; next }
	$1 == "dir" { dir = $2; for (i = 1; i <= NF; i++) if ($i == "priority") prio = $(i + 1) }
	$1 == "tmpl" { tmpl = tmpl " tmpl src " $3 " dst " $5 }
	$1 == "proto" && tmpl != "" { tmpl = tmpl " proto " $2; for (i = 3; i <= NF; i++) tmpl = tmpl " " $i }
	$1 == "level" && tmpl != "" { tmpl = tmpl " level " $2 }
	END { flush() }'
}

# xfrm_objects HOST: SAs (larval ones too) plus policies other than the
# sockets' bypass ones.
xfrm_objects() {
	_n=$(ip -n "$1" xfrm state count | awk '{ print $NF }')
	_p=$(ip -n "$1" xfrm policy | grep -cE '(^|[[:space:]])dir (in|out|fwd)')
	echo $((_n + _p))
}
