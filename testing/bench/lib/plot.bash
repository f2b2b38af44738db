# shellcheck shell=bash
# Tables out of the benches' markdown, and PNG bar charts of them with
# gnuplot (sourced by testing/bench/all).
#   md_cols FILE HEADER COL...  the rows of the first markdown table in FILE
#                               whose header row matches the regex HEADER:
#                               the cells of the columns named COL (header
#                               text, exact), tab-separated; bold marks and
#                               spaces trimmed. A column is found by its
#                               name, not its place, so new columns do not
#                               break the plots.
#   md_sections FILE REGEX DIR  splits FILE at each heading line matching
#                               REGEX (its first number names the part:
#                               DIR/1000.md ...); prints the numbers
#   bars TSV PNG TITLE YLABEL   one bar per row (label, value)
#   panels PNG TITLE TSV:TITLE... one bar chart per TSV, on one PNG

md_cols() {
	local file=$1 hdr=$2
	shift 2
	awk -v hdr="$hdr" -v cols="$(printf '%s\037' "$@")" '
	function trim(s) { gsub(/^[ \t*]+|[ \t*]+$/, "", s); return s }
	/^\|/ {
		n = split($0, c, "|")
		if (state == 0) {
			if ($0 !~ hdr) next
			for (i = 2; i < n; i++) idx[trim(c[i])] = i
			k = split(cols, w, "\037") - 1
			for (j = 1; j <= k; j++) if (!(w[j] in idx)) {
				printf "md_cols: no column \"%s\" in %s\n", w[j], FILENAME > "/dev/stderr"; bad = 1; exit 1 }
			state = 1; next
		}
		if (state == 1) { state = 2; next }	# the |---| line
		line = ""
		for (j = 1; j <= k; j++) line = line (j > 1 ? "\t" : "") trim(c[idx[w[j]]])
		print line
		next
	}
	state == 2 { exit }
	END { if (!bad && state == 0) { printf "md_cols: no table /%s/ in %s\n", hdr, FILENAME > "/dev/stderr"; exit 1 } }' "$file"
}

md_sections() {
	awk -v re="$2" -v dir="$3" '
	$0 ~ re { match($0, /[0-9]+/); n = substr($0, RSTART, RLENGTH); print n; out = dir "/" n ".md"; next }
	out != "" { print > out }' "$1"
}

# gnuplot's common settings: tab-separated data, "?" (and any text) missing.
_gp_head() {
	cat <<-EOF
	set terminal pngcairo size $1 font "sans,10" noenhanced
	set output "$2"
	set datafile separator "\t"
	set datafile missing "?"
	set style data histograms
	set style histogram clustered gap 1
	set style fill solid 0.8 border -1
	set boxwidth 0.8
	set grid ytics
	set yrange [0:*]
	set xtics rotate by -30 nomirror
	set key off
	EOF
}

# _gp_num TSV: true when column 2 holds at least one number.
_gp_num() { awk -F'\t' '$2 ~ /^[0-9.eE+-]+$/ { ok = 1 } END { exit !ok }' "$1"; }

bars() {
	_gp_num "$1" || { echo "plot: no numbers in $1 for $2" >&2; return 1; }
	{
		_gp_head 1000,520 "$2"
		echo "set title \"$3\""
		echo "set ylabel \"$4\""
		echo "plot \"$1\" using 2:xtic(1) linecolor rgb \"#3b6ea5\", '' using 0:2:2 with labels offset 0,0.7 font \",8\""
	} | gnuplot 2>>"${2%.png}.gnuplot.log"
}

panels() {
	local png=$1 title=$2 n=0 p cols rows
	shift 2
	for p; do _gp_num "${p%%:*}" && n=$((n + 1)); done
	[ "$n" -gt 0 ] || { echo "plot: no numbers for $png" >&2; return 1; }
	cols=$((n < 3 ? n : 3))
	rows=$(((n + cols - 1) / cols))
	{
		_gp_head "$((cols * 420)),$((rows * 340 + 40))" "$png"
		echo "set multiplot layout $rows,$cols title \"$title\""
		for p; do
			_gp_num "${p%%:*}" || continue
			echo "set title \"${p#*:}\""
			echo "plot \"${p%%:*}\" using 2:xtic(1) linecolor rgb \"#3b6ea5\", '' using 0:2:2 with labels offset 0,0.7 font \",8\""
		done
		echo "unset multiplot"
	} | gnuplot 2>>"${png%.png}.gnuplot.log"
}
