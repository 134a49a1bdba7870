# C types for maumau/env/seen.py when Cython compiles it (setup.py); Python ignores this file.
# Seen becomes an extension type: its offsets are C integers, the kept vector a C array of floats
# written entry by entry, and it reads the compiled GameState's fields as C fields (cimported below;
# so the compiled Seen runs only with the compiled engine: maumau/core/compiled.py).
cimport cython

from maumau.core.state cimport GameState


@cython.final
cdef class Seen:
    cdef public object observer
    cdef public Py_ssize_t seat
    cdef tuple _order, _writers
    cdef dict _slot, _phases
    cdef tuple _slot_at
    cdef Py_ssize_t _hand, _pile, _top, _drawn, _sizes, _to_move, _phase, _stock, _idle
    cdef list _entries
    cdef object _vector
    cdef float[::1] _cells
    cdef bytes _seen_hand, _seen_pile
    cdef tuple _seen_table
    cdef Py_ssize_t _seen_top
    cdef object _seen_drawn, _seen_phase, _seen_locked
    cdef Py_ssize_t _seen_to_move
    cdef list _seen_values, _seen_entries

    cpdef forget(self)

    @cython.locals(cells=cython.float[::1], seat=Py_ssize_t, hands=tuple, hand=bytes, pile=bytes,
                   to_move=Py_ssize_t, order=tuple, at=Py_ssize_t, k=Py_ssize_t, other=Py_ssize_t,
                   size=Py_ssize_t)
    cpdef look(self, GameState state)

    @cython.locals(part=Py_ssize_t, seen=list)
    cdef _change_table(self, tuple table)

    @cython.locals(cells=cython.float[::1], stock=Py_ssize_t, n=Py_ssize_t, idle=Py_ssize_t)
    cdef _table(self, GameState state, Py_ssize_t to_move)

    @cython.locals(old=bytes, cells=cython.float[::1], slot=tuple, at=Py_ssize_t, front=Py_ssize_t,
                   shorter=Py_ssize_t, back=Py_ssize_t, i=Py_ssize_t)
    cdef _change_hand(self, bytes hand)

    @cython.locals(old=bytes, cells=cython.float[::1], slot=tuple, at=Py_ssize_t, k=Py_ssize_t,
                   first=Py_ssize_t, i=Py_ssize_t, top=Py_ssize_t)
    cdef _change_pile(self, bytes pile)

    @cython.locals(cells=cython.float[::1], at=Py_ssize_t)
    cdef _change_drawn(self, drawn)

    @cython.locals(known=dict, cells=cython.float[::1], index=Py_ssize_t, number=float)
    cdef _change(self, Py_ssize_t part, value)
