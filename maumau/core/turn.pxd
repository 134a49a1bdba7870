# C types for maumau/turn.py when Cython compiles it (setup.py); Python ignores this file.
# Turn and Deal become extension types: the engine reads and fills their fields directly.
cimport cython

from maumau.core.state cimport GameState, make_state, next_active


@cython.locals(i=Py_ssize_t, index=Py_ssize_t)
cpdef tuple add_cards(hand, new)
@cython.locals(i=Py_ssize_t)
cpdef tuple remove_cards(hand, gone)


cdef class _Seats:
    cdef public object active, direction


cdef class _Tabletop(_Seats):
    cdef public object variant, hands, stock, discard, seed, events, acting


cdef class Turn(_Tabletop):
    cdef public object state, player, move, wish, answered, pending, phase, drawn, memory
    cdef public object to_move, skips, idle, winner, over, blocked


cdef class Deal(_Tabletop):
    cdef public object dealer, to_move, choose_wish
