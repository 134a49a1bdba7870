# C types for maumau/env/actions.py when Cython compiles it (setup.py); Python ignores this file.
# Actions becomes an extension type, so that the compiled Hand asks it for the legal actions of a
# state with a C call, and the numbers are looked up in a C-typed dict.
cimport cython


@cython.final
cdef class Actions:
    cdef public object variant
    cdef public tuple moves
    cdef dict _index

    @cython.locals(index=dict)
    cpdef tuple legal_key(self, state)
