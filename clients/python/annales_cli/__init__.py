"""The ``annales`` command line: bot demos, records (export / verify) and content reports."""
