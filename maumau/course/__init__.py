"""The course itself: its notebooks and exercises, and their translations (``translations``)."""
