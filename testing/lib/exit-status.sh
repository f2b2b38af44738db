# Sourced (sh or bash) by testing/uml/boot, which returns these statuses,
# and by what reads them (run-scenarios, the benches). boot exits with the
# script's own status, or with one of its own:
# shellcheck shell=sh disable=SC2034 # the statuses are the sourcers'
UML_TIMED_OUT=124 # the script, or UML itself, ran past its timeout
UML_DIED=125      # UML died, or never started, without recording a status

# uml_exit_why STATUS SECONDS RESULTS: one line that explains a status of
# boot's own (SECONDS: the timeout given to boot; RESULTS: its -r dir).
# Returns 1, and prints nothing, for a status the script itself returned.
uml_exit_why() {
	case $1 in
	"$UML_TIMED_OUT") echo "timed out after ${2}s" ;;
	"$UML_DIED") echo "UML died without a status; console: $3/console.log" ;;
	*) return 1 ;;
	esac
}
