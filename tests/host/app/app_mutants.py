#!/usr/bin/env python3
"""app_mutants.py - raw clients for tests/host/app-mutants.sh, for cases
app_client.py has no mode for.

    app_mutants.py PORT sameturn PID PATH [--wait S]
        Two connections, accepted; the server (PID) is stopped, both send
        GET PATH, the server continues: both requests are ready in the same
        poll() turn. Prints: answers=N (responses begun, on both).
    app_mutants.py PORT split PART... [--gap S] [--wait S]
        One connection; each PART (Python escapes, e.g. '\\r\\n') is sent as
        its own write, GAP seconds apart; then read until EOF or the wait.
        Prints: answers=N end=eof|reset|deadline bodies=B1,B2,...
"""
import argparse
import os
import signal
import socket
import time


def connect(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    return s


def read_all(s, deadline):
    data = b""
    how = "deadline"
    while time.monotonic() < deadline:
        s.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            how = "reset"
            break
        if not chunk:
            how = "eof"
            break
        data += chunk
    return data, how


def responses(data):
    """Bodies of the whole responses in data (Content-Length framed)."""
    out = []
    while True:
        end = data.find(b"\r\n\r\n")
        if end < 0 or not data.startswith(b"HTTP/"):
            return out
        n = 0
        for line in data[:end].split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                n = int(value.strip())
        body = data[end + 4:end + 4 + n]
        if len(body) < n:
            return out
        out.append(body)
        data = data[end + 4 + n:]


def cmd_sameturn(a):
    socks = [connect(a.port) for _ in range(2)]
    time.sleep(0.5)  # both accepted: in the poll set
    req = ("GET %s HTTP/1.1\r\nHost: t\r\n\r\n" % a.path).encode()
    os.kill(a.pid, signal.SIGSTOP)
    try:
        for s in socks:
            s.sendall(req)
        time.sleep(0.3)
    finally:
        os.kill(a.pid, signal.SIGCONT)
    deadline = time.monotonic() + a.wait
    answers = 0
    for s in socks:
        data, _ = read_all(s, deadline)
        answers += data.count(b"HTTP/1.1 ")
        s.close()
    print("answers=%d" % answers)


def cmd_split(a):
    s = connect(a.port)
    for i, part in enumerate(a.parts):
        if i:
            time.sleep(a.gap)
        s.sendall(part.encode("latin-1").decode("unicode_escape").encode("latin-1"))
    data, how = read_all(s, time.monotonic() + a.wait)
    bodies = responses(data)
    print("answers=%d end=%s bodies=%s" % (
        len(bodies), how, ",".join(b.decode("latin-1").strip() for b in bodies)))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("port", type=int)
    sub = p.add_subparsers(dest="cmd", required=True)
    st = sub.add_parser("sameturn")
    st.add_argument("pid", type=int)
    st.add_argument("path")
    st.add_argument("--wait", type=float, default=5)
    sp = sub.add_parser("split")
    sp.add_argument("parts", nargs="+")
    sp.add_argument("--gap", type=float, default=0.3)
    sp.add_argument("--wait", type=float, default=5)
    a = p.parse_args()
    {"sameturn": cmd_sameturn, "split": cmd_split}[a.cmd](a)


if __name__ == "__main__":
    main()
