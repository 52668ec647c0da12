"""What every layer shares: the exception family, the names people read, safe text and files, results.

Private: the public names (``AccordError``, ``AccordWarning``) are exported from :mod:`accord`.
"""
