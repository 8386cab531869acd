"""Tests of the Python client library and the ``annales`` network commands."""
