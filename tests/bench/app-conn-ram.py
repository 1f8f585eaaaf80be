#!/usr/bin/env python3
"""app-conn-ram.py BIN ROOT PORT [ARGS...]: what the host build of the
server costs in RAM (a benchmark, reported, not a test).

Starts BIN on 127.0.0.1:PORT serving ROOT (made by scripts/board/testfiles.sh),
reads /proc/PID/status at rest, with 64 idle keep-alive connections (one
GET /hello.txt each), and after 16 clients fetched test.bin at once.
Prints one line: rest_rss_k rest_anon_k idle64_anon_k per_conn_anon_b
(RssAnon growth per idle connection, bytes) hwm_after_16_fetches_k
(VmHWM: peak RSS, file pages included) anon_after_k. Compare two builds
run one after the other, several times: file pages make VmRSS noisy."""
import socket, subprocess, sys, time, threading
binp, root, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
extra = sys.argv[4:]
p = subprocess.Popen([binp, "-a", "127.0.0.1", "-p", str(port), "-r", root, "-t", "60", "-T", "60"] + extra,
                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
t0 = time.time()
while True:
    line = p.stdout.readline().decode()
    if line.startswith("fileserver: ready"):
        break
    if time.time() - t0 > 10 or not line:
        sys.exit("not ready")
threading.Thread(target=lambda: [None for _ in p.stdout], daemon=True).start()
def status():
    d = {}
    for l in open("/proc/%d/status" % p.pid):
        k, _, v = l.partition(":")
        if k in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
            d[k] = int(v.split()[0])
    return d
def get(s, path):
    s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path).encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    n = int([l.split(b":")[1] for l in head.split(b"\r\n") if l.lower().startswith(b"content-length")][0])
    while len(body) < n:
        c = s.recv(65536)
        if not c: break
        body += c
    return len(body)
time.sleep(0.3)
rest = status()
conns = []
for i in range(64):
    s = socket.create_connection(("127.0.0.1", port))
    get(s, "/hello.txt")
    conns.append(s)
time.sleep(0.3)
idle = status()
for s in conns: s.close()
time.sleep(0.3)
def fetch():
    s = socket.create_connection(("127.0.0.1", port))
    get(s, "/test.bin"); s.close()
ts = [threading.Thread(target=fetch) for _ in range(16)]
[t.start() for t in ts]; [t.join() for t in ts]
time.sleep(0.3)
load = status()
p.terminate(); p.wait()
print("rest_rss_k=%d rest_anon_k=%d idle64_anon_k=%d per_conn_anon_b=%d hwm_after_16_fetches_k=%d anon_after_k=%d" % (
    rest["VmRSS"], rest["RssAnon"], idle["RssAnon"], (idle["RssAnon"] - rest["RssAnon"]) * 1024 // 64,
    load["VmHWM"], load["RssAnon"]))
