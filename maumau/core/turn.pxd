# C types for maumau/turn.py when Cython compiles it (setup.py); Python ignores this file.
# Turn and Deal become extension types: the engine (maumau/core/state.py) reads and fills their
# fields directly.  This module cimports nothing of the state: a Turn reads a state, never makes one.
cimport cython

@cython.locals(n=Py_ssize_t)
cpdef Py_ssize_t next_active(active, Py_ssize_t seat, Py_ssize_t step)

# A hand is bytes of card indices: walked as C chars, changed by one bytes.replace (a C call).
@cython.locals(index_of=dict)
cpdef bytes add_cards(bytes hand, new)
@cython.locals(i=Py_ssize_t, held=Py_ssize_t, after=bytes)
cpdef bytes add_index(bytes hand, Py_ssize_t index)
@cython.locals(one=tuple, index=Py_ssize_t)
cpdef bytes remove_cards(bytes hand, bytes gone)
@cython.locals(at=tuple, i=Py_ssize_t)
cpdef tuple cards_of(bytes hand)
@cython.locals(index_of=dict)
cpdef bytes packed(cards)
@cython.locals(i=Py_ssize_t, j=Py_ssize_t)
cpdef shuffle(list cards, getrandbits)


# The methods the engine calls on its hot path are cpdef: called from C, without a Python call.
cdef class _Seats:
    cdef public object active, direction
    cpdef next(self, seat, direction=*)


cdef class _Tabletop(_Seats):
    cdef public object variant, hands, stock, discard, seed, events, acting
    cpdef list draw(self, seat, n, why=*)
    cpdef bint reshuffle(self)
    cpdef bint can_draw(self)


cdef class Turn(_Tabletop):
    cdef public object state, player, move, wish, answered, pending, phase, drawn, memory
    cdef public object to_move, skips, idle, winner, over, blocked
    cpdef list draw(self, seat, n, why=*)
    cpdef following(self)
    cpdef end_turn(self, bint played)
    cpdef bint drew_this_turn(self)


cdef class Deal(_Tabletop):
    cdef public object dealer, to_move, choose_wish
