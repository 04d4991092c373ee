#!/usr/bin/env python3
"""Load test: the example thumbnail server against thumbor, in one run, on loopback.

nginx serves the bench photos (../shared/bench) as the origin, under /u/<n>/<file> so that
every request names a distinct URL (nothing is answered from a cache). wrk sends
`GET /thumb?url=…&w=256` (Glimpse) or `GET /unsafe/256x0/…` (thumbor 7.8, Pillow, N
processes) with 16 connections for the duration, while a probe asks the server's health
route 10 times a second (--health-rate; 0 for one wrk connection asking back to back, which
takes a core's share from a server that answers fast), for its latency under load. The servers run in turn,
alternating, for --rounds rounds; the script samples each server's resident memory (every
process of it) twice a second and prints one line per run and the medians:

    run,SERVER,ROUND,requests_per_s,R,errors,E,peak_rss_mb,M,rss_thirds_mb,A/B/C,health_p99_ms,P

`--smoke` instead checks, in a few seconds, that the server answers: /health, a JPEG and a PNG
thumbnail of the right width and content type, WebP for an Accept field that asks for it,
400 for a bad URL and 403 for an address the policy refuses (.ci/run runs it on the debug build).

Needs: nginx, wrk (Debian), and for the comparison thumbor 7.8 (`pip install thumbor==7.8.0`,
or --thumbor PATH to its executable). Reproduce Benchmarks.md's table with:
    python3 Examples/ThumbnailServer/loadtest.py --rounds 3 --duration 30
"""

import argparse
import os
import re
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(HERE))
BENCH = os.path.join(os.path.dirname(REPOSITORY), "shared", "bench")
# The bench photos every server is given: all JPEGs and the 8-bit PNGs (thumbor's Pillow
# engine and Glimpse both read them).
SOURCES = [
    "jpeg/gray-2560x1600-q90.jpg", "jpeg/photo-2560x1600-420-q70.jpg", "jpeg/photo-2560x1600-420-q90.jpg",
    "jpeg/photo-2560x1600-420-restart-q70.jpg", "jpeg/photo-2560x1600-422-progressive-q90.jpg",
    "jpeg/photo-3840x2400-444-progressive-q99.jpg", "jpeg/photo-5120x2880-420-progressive-q80.jpg",
    "jpeg/photo-5120x2880-420-q80.jpg", "png/gray8-3840x2160.png", "png/palette8-2560x1600.png",
    "png/rgb8-3840x2160.png", "png/rgba8-1080x1920.png", "png/rgba8-2560x1600-adam7.png",
    "png/rgba8-5120x2880.png",
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            time.sleep(0.1)
    return False


class Nginx:
    """nginx on 127.0.0.1 serving the bench folder; /u/<n>/<path> is <path> for any n of digits and dashes."""

    def __init__(self, root):
        self.prefix = tempfile.mkdtemp(prefix="glimpse-loadtest-nginx-")
        self.port = free_port()
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        conf = os.path.join(self.prefix, "nginx.conf")
        tmp = os.path.join(self.prefix, "tmp")
        with open(conf, "w") as f:
            f.write(f"""
daemon off; master_process off; worker_processes 1;
error_log {self.prefix}/error.log; pid {self.prefix}/nginx.pid;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {tmp}; proxy_temp_path {tmp}; fastcgi_temp_path {tmp};
    uwsgi_temp_path {tmp}; scgi_temp_path {tmp};
    types {{ image/jpeg jpg; image/png png; }}
    server {{
        listen 127.0.0.1:{self.port};
        location ~ ^/u/[0-9-]+/(.*)$ {{ alias {root}/$1; }}
        location /fixtures/ {{ alias {REPOSITORY}/Fixtures/; }}
        location / {{ root {root}; }}
    }}
}}
""")
        self.process = subprocess.Popen([binary, "-p", self.prefix, "-c", conf],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not wait_for(self.port, 10):
            raise SystemExit("nginx did not start")

    def url(self, path, n=None):
        return f"http://127.0.0.1:{self.port}/" + (f"u/{n}/{path}" if n is not None else path)

    def stop(self):
        self.process.kill()
        self.process.wait()
        shutil.rmtree(self.prefix, ignore_errors=True)


class Server:
    """A server under test: its command, how to build a thumbnail path, its health route."""

    def __init__(self, name, command, port, health, env=None):
        self.name, self.command, self.port, self.health = name, command, port, health
        self.env = env
        self.process = None

    def start(self):
        self.process = subprocess.Popen(self.command, env=self.env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        if not wait_for(self.port, 120):
            self.stop()
            raise SystemExit(f"{self.name} did not start: {' '.join(self.command)}")

    def pids(self):
        """The server's process and all its descendants (thumbor forks its workers)."""
        found, frontier = set(), [self.process.pid]
        while frontier:
            pid = frontier.pop()
            found.add(pid)
            try:
                with open(f"/proc/{pid}/task/{pid}/children") as f:
                    frontier.extend(int(c) for c in f.read().split())
            except OSError:
                pass
        return found

    def rss_mb(self):
        total = 0
        for pid in self.pids():
            try:
                with open(f"/proc/{pid}/status") as f:
                    for line in f:
                        if line.startswith("VmRSS:"):
                            total += int(line.split()[1])
            except OSError:
                pass
        return total / 1024

    def stop(self):
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


WRK_SCRIPT = """
local sources = {%s}
local counter = 0
local id = 0
local make = %s
local run = %d
function setup(thread) id = id + 1; thread:set("id", id) end
function init(args) id = tonumber(wrk.thread:get("id")) or 0 end
function request()
    counter = counter + 1
    local n = run .. "-" .. id .. "-" .. counter
    local origin = "http://127.0.0.1:%d/u/" .. n .. "/" .. sources[(counter %% #sources) + 1]
    return wrk.format("GET", make(origin))
end
"""

GLIMPSE_PATH = """function(origin)
    local escaped = origin:gsub("[^%w%-%.%_%~]", function(c) return string.format("%%%02X", string.byte(c)) end)
    return "/thumb?w=256&url=" .. escaped
end"""
THUMBOR_PATH = """function(origin) return "/unsafe/256x0/" .. origin end"""


def parse_wrk(text):
    """requests/s, error count (non-2xx, socket errors) and p99 latency in ms from wrk --latency."""
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    errors = 0
    m = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
    if m:
        errors += int(m.group(1))
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    if m:
        errors += sum(int(x) for x in m.groups())
    p99 = None
    m = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", text)
    if m:
        value = float(m.group(1))
        p99 = {"us": value / 1000, "ms": value, "s": value * 1000}[m.group(2)]
    return rps, errors, p99


class HealthProbe(threading.Thread):
    """Asks the health route `rate` times a second on one kept-alive connection, as a load
    balancer's health check does. Each latency runs from the time the probe was due, not
    from when it was sent, so a server that stalls is charged for the probes it delayed."""

    def __init__(self, port, path, rate, duration):
        super().__init__()
        self.port, self.path, self.interval, self.duration = port, path, 1.0 / rate, duration
        self.latencies, self.errors = [], 0

    def run(self):
        import http.client
        # Above the load's own processes when allowed (root): on a real deployment the
        # balancer's probe waits for no core on the server's machine, so its wait for one
        # here would be charged to the server.
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), -10)
        except OSError:
            pass
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        start = time.monotonic()
        due = start
        while due < start + self.duration:
            time.sleep(max(0.0, due - time.monotonic()))
            try:
                connection.request("GET", self.path)
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    self.errors += 1
            except (OSError, http.client.HTTPException):
                self.errors += 1
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            done = time.monotonic()
            self.latencies.append((done - due) * 1000)
            due += self.interval
            # Probes that came due during a long wait are sent at once, one after another.

    def p99(self):
        if not self.latencies:
            return None
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def run_load(server, path_maker, nginx_port, duration, connections, workdir, run, health_rate):
    """One run; `run` numbers its URLs, so that no run sees what an earlier one cached."""
    script = os.path.join(workdir, f"{server.name}-{run}.lua")
    with open(script, "w") as f:
        sources = ", ".join(f'"{s}"' for s in SOURCES)
        f.write(WRK_SCRIPT % (sources, path_maker, run, nginx_port))
    server.start()
    samples = []
    stop = threading.Event()

    def sample():
        while not stop.is_set():
            samples.append(server.rss_mb())
            stop.wait(0.5)

    sampler = threading.Thread(target=sample)
    sampler.start()
    base = f"http://127.0.0.1:{server.port}"
    load = subprocess.Popen(["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--timeout", "30s", "--latency",
                             "-s", script, base], stdout=subprocess.PIPE, text=True)
    if health_rate > 0:
        probe = HealthProbe(server.port, server.health, health_rate, duration)
        probe.start()
        health = None
    else:
        health = subprocess.Popen(["wrk", "-t1", "-c1", f"-d{duration}s", "--latency", base + server.health],
                                  stdout=subprocess.PIPE, text=True)
    load_out, _ = load.communicate()
    if health is not None:
        health_out, _ = health.communicate()
        _, health_errors, p99 = parse_wrk(health_out)
    else:
        probe.join()
        health_errors, p99 = probe.errors, probe.p99()
    stop.set()
    sampler.join()
    server.stop()
    rps, errors, _ = parse_wrk(load_out)
    third = max(1, len(samples) // 3)
    thirds = [max(samples[i * third:(i + 1) * third] or [0]) for i in range(3)]
    return {"rps": rps, "errors": errors, "peak": max(samples or [0]), "thirds": thirds, "p99": p99,
            "health_errors": health_errors, "load_output": load_out}


def glimpse_server(args, workdir, nginx):
    binary = os.path.join(HERE, ".build", args.configuration, "ThumbnailServer")
    if not os.path.exists(binary):
        raise SystemExit(f"{binary} not found: build it with "
                         f"swift build -c {args.configuration} --package-path {HERE}")
    port = free_port()
    command = [binary, "--port", str(port), "--allow-host", "127.0.0.1",
               "--cache-dir", tempfile.mkdtemp(prefix="glimpse-cache-", dir=workdir)]
    if args.processing_width:
        command += ["--processing-width", str(args.processing_width)]
    command += args.glimpse_arg
    env = dict(os.environ)
    # As docs/Dockerfile.example: glibc returns freed decode buffers to the system.
    env.setdefault("MALLOC_MMAP_THRESHOLD_", "1048576")
    return Server("glimpse", command, port, "/health", env)


def thumbor_server(args, workdir):
    executable = args.thumbor or shutil.which("thumbor")
    if not executable:
        raise SystemExit("thumbor not found: pip install thumbor==7.8.0, or pass --thumbor PATH")
    port = free_port()
    conf = os.path.join(workdir, "thumbor.conf")
    with open(conf, "w") as f:
        # Defaults but the unsafe URLs a load test needs and the storage kept in the run's folder.
        f.write(f"ALLOW_UNSAFE_URL = True\nQUALITY = 80\nFILE_STORAGE_ROOT_PATH = '{workdir}/thumbor-storage'\n")
    return Server("thumbor", [executable, "--port", str(port), "--ip", "127.0.0.1",
                              "--processes", str(args.thumbor_processes), "--conf", conf], port, "/healthcheck")


def smoke(args, workdir, nginx):
    server = glimpse_server(args, workdir, nginx)
    server.start()
    base = f"http://127.0.0.1:{server.port}"
    failures = []

    def get(path, accept=None):
        request = urllib.request.Request(base + path, headers={"Accept": accept} if accept else {})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return response.status, response.headers.get("Content-Type"), response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Content-Type"), error.read()

    def thumb(source, width, accept=None):
        return get("/thumb?w=%d&url=%s" % (width, urllib.parse.quote(nginx.url(source), safe="")), accept)

    def check(condition, what):
        print(("ok   " if condition else "FAIL ") + what)
        if not condition:
            failures.append(what)

    try:
        status, _, body = get("/health")
        check(status == 200 and body == b"ok", "/health answers ok")
        status, kind, body = thumb("jpeg/photo-2560x1600-420-q90.jpg", 160)
        check(status == 200 and kind == "image/jpeg" and body[:2] == b"\xff\xd8", "a JPEG thumbnail is JPEG")
        check(jpeg_width(body) == 160, f"the JPEG thumbnail is 160 wide (got {jpeg_width(body)})")
        status, kind, body = thumb("fixtures/png/ct6-d08-seq.png", 16)
        width = struct.unpack(">I", body[16:20])[0] if body[:8] == b"\x89PNG\r\n\x1a\n" else None
        check(status == 200 and kind == "image/png" and width == 16,
              f"a transparent PNG gives a 16-wide PNG (status {status}, {kind}, width {width})")
        status, kind, body = thumb("jpeg/photo-2560x1600-420-q90.jpg", 160, accept="image/webp,*/*")
        check(status == 200 and kind == "image/webp" and body[8:12] == b"WEBP", "Accept: image/webp gives WebP")
        status, _, _ = get("/thumb?url=not%20a%20url")
        check(status == 400, f"a bad URL is 400 (got {status})")
        refused = urllib.parse.quote(f"http://127.0.0.2:{nginx.port}/jpeg/photo-2560x1600-420-q90.jpg", safe="")
        status, _, _ = get("/thumb?url=" + refused)
        check(status == 403, f"an address outside the allow-list is 403 (got {status})")
    finally:
        server.stop()
    return not failures


def jpeg_width(data):
    """The width in a JPEG's first SOFn segment, or None."""
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            return None
        marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return struct.unpack(">H", data[i + 7:i + 9])[0]
        i += 2 + length
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="check the server's answers, no load")
    parser.add_argument("--configuration", default="release", choices=["debug", "release"])
    parser.add_argument("--duration", type=int, default=30)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--health-rate", type=float, default=10,
                        help="health probes per second (0: one wrk connection asking back to back)")
    parser.add_argument("--processing-width", type=int, help="the Glimpse server's decode threads")
    parser.add_argument("--glimpse-arg", action="append", default=[],
                        help="one more argument for the Glimpse server (repeat it)")
    parser.add_argument("--thumbor", help="the thumbor executable")
    parser.add_argument("--thumbor-processes", type=int, default=2)
    parser.add_argument("--no-thumbor", action="store_true", help="load the Glimpse server only")
    args = parser.parse_args()
    if not os.path.isdir(BENCH):
        raise SystemExit(f"{BENCH}: the bench photos are missing")
    workdir = tempfile.mkdtemp(prefix="glimpse-loadtest-")
    nginx = Nginx(BENCH)
    try:
        if args.smoke:
            sys.exit(0 if smoke(args, workdir, nginx) else 1)
        results = {"glimpse": [], "thumbor": []}
        for round_number in range(1, args.rounds + 1):
            servers = [("glimpse", GLIMPSE_PATH)] + ([] if args.no_thumbor else [("thumbor", THUMBOR_PATH)])
            for name, path_maker in servers:
                server = glimpse_server(args, workdir, nginx) if name == "glimpse" else thumbor_server(args, workdir)
                run = int(time.time() * 10) % 100000
                r = run_load(server, path_maker, nginx.port, args.duration, args.connections, workdir, run,
                             args.health_rate)
                results[name].append(r)
                thirds = "/".join(f"{x:.0f}" for x in r["thirds"])
                p99 = f"{r['p99']:.2f}" if r["p99"] is not None else "-"
                print(f"run,{name},{round_number},requests_per_s,{r['rps']:.1f},errors,{r['errors']},"
                      f"peak_rss_mb,{r['peak']:.0f},rss_thirds_mb,{thirds},health_p99_ms,{p99}", flush=True)
        for name, runs in results.items():
            if runs:
                print(f"median,{name},requests_per_s,{statistics.median(r['rps'] for r in runs):.1f},"
                      f"peak_rss_mb,{statistics.median(r['peak'] for r in runs):.0f},"
                      f"health_p99_ms,{statistics.median(r['p99'] or 0 for r in runs):.2f}")
        if results["glimpse"] and results["thumbor"]:
            ratios = [g["rps"] / t["rps"] for g, t in zip(results["glimpse"], results["thumbor"]) if t["rps"]]
            print(f"ratio,glimpse/thumbor,requests_per_s,{statistics.median(ratios):.2f},"
                  f"per_round,{'/'.join(f'{x:.2f}' for x in ratios)}")
    finally:
        nginx.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
