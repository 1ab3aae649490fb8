"""``isalens serve``: a local web page where editing a kernel recompiles it in the background and shows what the
edit did to registers, occupancy and cycles (docs/serve.md).

``files`` decides which files the server may read and write (only those it was opened on), ``guard`` checks the
access token, Host and Origin of every request, ``worker`` runs each compile in a child process (``child``) with
time and memory limits, ``view`` turns the engine's ``analyze --json`` document into what the page draws, and
``app`` wires the routes. Starlette and uvicorn (the ``serve`` extra) are imported only here.
"""
