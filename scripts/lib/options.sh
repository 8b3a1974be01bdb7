# Sourced by the measurement scripts: their "--name VALUE" options into shell variables, one loop for all.
#
#   parse_options SCRIPT SPEC... -- "$@"
#
# SPEC: NAME (--NAME VALUE sets $NAME), NAME=VAR (--NAME VALUE sets $VAR), NAME! (a flag: --NAME sets
# $NAME to "--NAME"). Anything else: "SCRIPT: unknown option X" on stderr and exit 2. Variables left
# unset keep the defaults the script gave them before the call.
parse_options() {
    local po_script="$1"
    shift
    local -A po_var=() po_flag=()
    while [ "$1" != -- ]; do
        case "$1" in
            *!) po_var[${1%!}]="${1%!}" po_flag[${1%!}]=1 ;;
            *=*) po_var[${1%%=*}]="${1#*=}" ;;
            *) po_var[$1]="$1" ;;
        esac
        shift
    done
    shift
    while [ $# -gt 0 ]; do
        local po_name="${1#--}"
        if [ "$po_name" = "$1" ] || [ -z "${po_var[$po_name]+set}" ]; then
            echo "$po_script: unknown option $1" >&2
            exit 2
        fi
        if [ -n "${po_flag[$po_name]+set}" ]; then
            printf -v "${po_var[$po_name]}" '%s' "$1"
            shift
        else
            printf -v "${po_var[$po_name]}" '%s' "$2"
            shift 2
        fi
    done
}
