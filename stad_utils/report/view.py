"""A local viewer of a run's failure browser that reads any task's replies on demand.

``report.html`` carries the drill-downs of a bounded set of tasks (`stad_utils.report.browser.carried_tasks`)
so that it opens at any size; this viewer serves the same table and reads a task's replies from
the run's records (`stad_utils.records.columnar`) when its row is opened::

    python -m stad_utils.report.view results/quickstart                  # prints http://127.0.0.1:8765/
    python -m stad_utils.report.view results/run-a results/run-b --port 9000

It listens on loopback only. A task that cannot be read is answered with an error the page shows.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from ..records.columnar import RunDirs
from .browser import BrowserRecords, browser_html, detail_html


def viewer_server(run_dirs: RunDirs, port: int = 8765) -> ThreadingHTTPServer:
    """An HTTP server (not yet serving) of the runs' browser: ``GET /`` the page, ``GET /task/<id>`` a drill-down."""
    records = BrowserRecords(run_dirs)
    if not records.ladders:
        raise ValueError(f"no evaluated task in {', '.join(map(str, records.runs))}")
    page = browser_html(records.data(max_details=0), title=f"STaD viewer · {', '.join(r.name for r in records.runs)}",
                        viewer=True).encode("utf-8")
    lock = threading.Lock()  # one DuckDB read at a time

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def _send(self, status: int, body: bytes, kind: str = "text/html; charset=utf-8") -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            path = urllib.parse.urlsplit(self.path).path
            if path in ("/", "/index.html"):
                return self._send(200, page)
            if not path.startswith("/task/"):
                return self._send(404, f"no such page: {path}".encode(), "text/plain; charset=utf-8")
            task_id = urllib.parse.unquote(path[len("/task/"):])
            if task_id not in records.ladders:
                return self._send(404, f"no evaluated task {task_id!r} in this run".encode(),
                                  "text/plain; charset=utf-8")
            try:
                with lock:
                    html = str(detail_html(records, task_id))
            except Exception as exc:  # the page shows what went wrong instead of an empty drill-down
                return self._send(500, f"{type(exc).__name__}: {exc}".encode(), "text/plain; charset=utf-8")
            return self._send(200, html.encode("utf-8"))

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)


@contextmanager
def serving(run_dirs: RunDirs, port: int = 0) -> Iterator[str]:
    """Serve the runs' viewer in a background thread for the ``with`` block; yields its address."""
    server = viewer_server(run_dirs, port)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def main(argv: list[str] | None = None) -> int:
    """The command line: serve the runs' browser on 127.0.0.1; the exit status."""
    parser = argparse.ArgumentParser(prog="python -m stad_utils.report.view", description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="run folders (later ones add models, as other_runs)")
    parser.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (default 8765; 0: any free one)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        server = viewer_server(args.runs, args.port)
    except (ValueError, FileNotFoundError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"read {', '.join(map(str, args.runs))} in {time.perf_counter() - started:.1f} s; "
          f"open http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
