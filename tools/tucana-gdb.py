# GDB commands for Tucana programs: the running subrank's copy of a
# privatized global (docs/privatization.md, "Debugging").
#
#   (gdb) source /path/to/share/tucana/tucana-gdb.py
#   (gdb) tucana-print counter         the current subrank's counter
#   (gdb) print $tucana_priv(counter)  the same, inside any expression
#   (gdb) print counter                the image: the initial values, not a subrank's
#
# The current subrank is the one the stopped thread (worker) runs. Its copy
# lies tucana_priv_delta() bytes after the variable's image; the runtime
# function is called in the program, so the program must be stopped in a
# subrank (a breakpoint in its code), not in the runtime's start-up.
import gdb


def _private_copy(value):
    """The current subrank's copy of `value` (a gdb.Value naming a variable)."""
    address = value.address
    if address is None:
        raise gdb.GdbError("tucana: not a variable (no address)")
    image = int(address.cast(gdb.lookup_type("unsigned long")))
    try:
        start = int(gdb.parse_and_eval("(unsigned long)&__start_tucana_priv"))
        stop = int(gdb.parse_and_eval("(unsigned long)&__stop_tucana_priv"))
    except gdb.error:
        return value  # the program has no privatized variable
    if not start <= image < stop:
        return value  # not privatized: one copy per process
    delta = int(gdb.parse_and_eval("(long)tucana_priv_delta()"))
    pointer = gdb.Value(image + delta).cast(value.type.pointer())
    return pointer.dereference()


class TucanaPriv(gdb.Function):
    """$tucana_priv(VARIABLE): the current subrank's copy of a privatized variable."""

    def __init__(self):
        super().__init__("tucana_priv")

    def invoke(self, value):
        return _private_copy(value)


class TucanaPrint(gdb.Command):
    """tucana-print EXPRESSION: print the current subrank's copy of a privatized variable."""

    def __init__(self):
        super().__init__("tucana-print", gdb.COMMAND_DATA, gdb.COMPLETE_SYMBOL)

    def invoke(self, argument, from_tty):
        value = _private_copy(gdb.parse_and_eval(argument))
        gdb.write("%s = %s\n" % (argument, value.format_string()))


TucanaPriv()
TucanaPrint()
