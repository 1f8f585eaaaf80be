#!/usr/bin/env python3
"""app_client.py - raw HTTP clients for the server's tests, where curl cannot
say what a test needs to know: when the server closed, how many bytes really
came, how many clients it served at once.

    app_client.py PORT raw [--wait S]         send stdin, read until EOF
    app_client.py PORT concurrent PATH N SHA256 [--head-wait S] [--wait S] [--hold F]
    app_client.py PORT hold PATH N [--wait S]
    app_client.py PORT dribble REQUEST_PATH SECONDS
    app_client.py PORT slowread PATH RATE [--rcvbuf B] [--wait S] [--mark F]
    app_client.py PORT idle PATH [--wait S]
    app_client.py PORT drain PATH [--wait S]
    app_client.py PORT late PATH1 PATH2 [--wait S]

Each prints one line of key=value words on stdout (see each function), for
the shell to check. Host tests use HOST 127.0.0.1; APP_CLIENT_HOST overrides.
Every wait is bounded (--wait, seconds).
"""
import argparse
import hashlib
import os
import select
import socket
import sys
import time

HOST = os.environ.get("APP_CLIENT_HOST", "127.0.0.1")


def connect(port, rcvbuf=0, timeout=10.0):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(timeout)
    s.connect((HOST, port))
    return s


def get(path, extra=""):
    return ("GET %s HTTP/1.1\r\nHost: t\r\n%s\r\n" % (path, extra)).encode()


def split_head(data):
    """(status, headers dict, body bytes) or None when the head is incomplete."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return None
    lines = data[:end].decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, data[end + 4:]


def read_until_eof(s, deadline):
    """All bytes until EOF or reset; (data, how, seconds) with how in
    eof|reset|deadline."""
    data = b""
    start = time.monotonic()
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return data, "deadline", time.monotonic() - start
        s.settimeout(left)
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            continue
        except (ConnectionResetError, BrokenPipeError):
            return data, "reset", time.monotonic() - start
        if not chunk:
            return data, "eof", time.monotonic() - start
        data += chunk


def read_response(s, deadline):
    """One response (head + Content-Length body): (status, headers, body),
    or None if it did not come complete before the deadline."""
    data = b""
    while time.monotonic() < deadline:
        parsed = split_head(data)
        if parsed:
            status, headers, body = parsed
            want = int(headers.get("content-length", "0"))
            if len(body) >= want:
                return status, headers, body[:want]
        s.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            return None
        if not chunk:
            return None
        data += chunk
    return None


def read_one(s, deadline):
    """The bytes of one response (its Content-Length body), without waiting
    for the close: (data, "one"), or what came and "eof"|"deadline"."""
    data = b""
    while True:
        parsed = split_head(data)
        if parsed and len(parsed[2]) >= int(parsed[1].get("content-length", "0")):
            return data, "one"
        left = deadline - time.monotonic()
        if left <= 0:
            return data, "deadline"
        s.settimeout(left)
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            return data, "reset"
        if not chunk:
            return data, "eof"
        data += chunk


def cmd_raw(a):
    """Send stdin, read until EOF (--one: until one response is complete).
    Prints: status= head_bytes= body_bytes= (all bytes after the first head)
    end=eof|reset|deadline|one seconds=. --out FILE keeps the bytes."""
    req = sys.stdin.buffer.read()
    s = connect(a.port)
    s.sendall(req)
    if a.one:
        start = time.monotonic()
        data, how = read_one(s, start + a.wait)
        secs = time.monotonic() - start
    else:
        data, how, secs = read_until_eof(s, time.monotonic() + a.wait)
    parsed = split_head(data)
    status, body = (parsed[0], parsed[2]) if parsed else (0, b"")
    if a.out:
        with open(a.out, "wb") as f:
            f.write(data)
    print("status=%d head_bytes=%d body_bytes=%d end=%s seconds=%.2f"
          % (status, len(data) - len(body), len(body), how, secs))


def recv_by(s, deadline, n):
    """Up to n bytes from s before deadline; b"" at EOF, on an error or
    when deadline passes."""
    s.settimeout(max(0.01, deadline - time.monotonic()))
    try:
        return s.recv(n)
    except (socket.timeout, OSError):
        return b""


def read_head(s, buf, deadline):
    """buf and what s sends until buf holds a whole head, s ends or
    deadline passes."""
    while split_head(buf) is None and time.monotonic() < deadline:
        chunk = recv_by(s, deadline, 4096)
        if not chunk:
            break
        buf += chunk
    return buf


def cmd_concurrent(a):
    """N clients send GET PATH; each must receive the start of its answer
    while all N are still connected (no client reads its body before that),
    then all read to the end. Prints: started=K (answers begun while all N
    were open) complete=M (bodies with the right sha256). With --hold F,
    once the heads are in (or --head-wait is over) it creates F and keeps
    all N open, reading nothing, until F is removed (or --wait is over), so
    that the caller can look at the server then. A head that came after
    --head-wait is still read, with its body, before --wait is over: it
    counts in complete, not in started."""
    socks = [connect(a.port, rcvbuf=4096) for _ in range(a.n)]
    for s in socks:
        s.sendall(get(a.path))
    bufs = [b""] * a.n
    started = 0
    deadline = time.monotonic() + a.head_wait
    waiting = set(range(a.n))
    while waiting and time.monotonic() < deadline:
        ready, _, _ = select.select([socks[i] for i in waiting], [], [],
                                    max(0.0, deadline - time.monotonic()))
        for s in ready:
            i = socks.index(s)
            chunk = s.recv(4096)
            bufs[i] += chunk
            if b"\r\n\r\n" in bufs[i] or not chunk:
                waiting.discard(i)
                started += bool(chunk)
    deadline = time.monotonic() + a.wait
    if a.hold:
        with open(a.hold, "w"):
            pass
        while os.path.exists(a.hold) and time.monotonic() < deadline:
            time.sleep(0.1)
    complete = 0
    for i, s in enumerate(socks):
        bufs[i] = read_head(s, bufs[i], deadline)
        parsed = split_head(bufs[i])
        if parsed is None:
            continue
        status, headers, body = parsed
        want = int(headers.get("content-length", "-1"))
        h = hashlib.sha256(body)
        got = len(body)
        while got < want and time.monotonic() < deadline:
            chunk = recv_by(s, deadline, 65536)
            if not chunk:
                break
            h.update(chunk)
            got += len(chunk)
        complete += status == 200 and got == want and h.hexdigest() == a.sha
    for s in socks:
        s.close()
    print("started=%d complete=%d" % (started, complete))


def cmd_hold(a):
    """N keep-alive connections each get an answer and stay open (every
    slot taken); then connection N+1 sends its request: its answer must wait
    until one of the N closes. Prints: held=K (of N answered while the others
    stayed open) early=yes|no (N+1 answered before any slot was freed)
    after_free=yes|no (N+1 answered once one closed) still_open=K (held
    connections that answer a second request at the end)."""
    held = []
    answered = 0
    for _ in range(a.n):
        s = connect(a.port)
        s.sendall(get(a.path))
        held.append(s)
    deadline = time.monotonic() + a.wait
    for s in held:
        r = read_response(s, deadline)
        answered += r is not None and r[0] == 200
    extra = connect(a.port)
    extra.sendall(get(a.path))
    early = read_response(extra, time.monotonic() + a.early_wait) is not None
    held.pop(0).close()
    after = early or read_response(extra, time.monotonic() + a.wait) is not None
    still = 0
    deadline = time.monotonic() + a.wait
    for s in held:
        try:
            s.sendall(get(a.path, "Connection: close\r\n"))
        except OSError:
            continue
    for s in held:
        r = read_response(s, deadline)
        still += r is not None and r[0] == 200
        s.close()
    extra.close()
    print("held=%d early=%s after_free=%s still_open=%d"
          % (answered, "yes" if early else "no", "yes" if after else "no", still))


def cmd_dribble(a):
    """Send GET REQUEST_PATH one byte a second (padded with headers so it
    lasts SECONDS) and note when the server closes. Prints:
    closed_after=S|never sent=BYTES answered=yes|no."""
    req = get(a.path)
    pad = b"X-Pad: " + b"a" * int(a.seconds + 2) + b"\r\n"
    req = req[:-2] + pad + b"\r\n"
    s = connect(a.port)
    start = time.monotonic()
    sent = 0
    closed = None
    answered = False
    while time.monotonic() - start < a.seconds + 1 and closed is None:
        try:
            s.send(req[sent:sent + 1])
            sent += 1
        except OSError:
            closed = time.monotonic() - start
            break
        until = time.monotonic() + 1.0
        while closed is None and time.monotonic() < until:
            r, _, _ = select.select([s], [], [], max(0.0, until - time.monotonic()))
            if not r:
                break
            try:
                chunk = s.recv(4096)
            except OSError:
                chunk = b""
            if chunk.startswith(b"HTTP/"):
                answered = True
            if not chunk:
                closed = time.monotonic() - start
    print("closed_after=%s sent=%d answered=%s"
          % ("%.2f" % closed if closed is not None else "never", sent,
             "yes" if answered else "no"))


def read_some(s, n, deadline, h):
    """Read up to n bytes (fewer at EOF, a reset or the deadline) into the
    hash h; return how many came."""
    got = 0
    while got < n:
        s.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = s.recv(n - got)
        except (socket.timeout, OSError):
            break
        if not chunk:
            break
        h.update(chunk)
        got += len(chunk)
    return got


def cmd_slowread(a):
    """GET PATH, then read the body at RATE bytes a second with a small
    receive buffer (--mark FILE: create FILE once the first bytes came).
    Prints: status= bytes= want= seconds= sha256=."""
    s = connect(a.port, rcvbuf=a.rcvbuf)
    s.sendall(get(a.path, "Connection: close\r\n"))
    start = time.monotonic()
    deadline = start + a.wait
    data = b""
    while split_head(data) is None and time.monotonic() < deadline:
        chunk = s.recv(1024)
        if not chunk:
            break
        if not data and a.mark:
            open(a.mark, "w").close()
        data += chunk
    parsed = split_head(data)
    status, headers, body = parsed if parsed else (0, {}, b"")
    want = int(headers.get("content-length", "-1"))
    h = hashlib.sha256(body)
    got = len(body)
    step = max(1, a.rate // 10)
    while got < want and time.monotonic() < deadline:
        # RATE/10 bytes, however many reads the small buffer takes, then
        # a tenth of a second's pause.
        n = read_some(s, step, deadline, h)
        got += n
        if n < step:
            break
        time.sleep(0.1)
    print("status=%d bytes=%d want=%d seconds=%.2f sha256=%s"
          % (status, got, want, time.monotonic() - start, h.hexdigest()))


def cmd_idle(a):
    """One keep-alive request, then silence: when does the server close?
    Prints: status= keep_alive=yes|no closed_after=S|never (from the end of
    the answer) end=eof|reset|deadline."""
    s = connect(a.port)
    s.sendall(get(a.path))
    r = read_response(s, time.monotonic() + a.wait)
    if r is None:
        print("status=0 keep_alive=no closed_after=never end=none")
        return
    data, how, secs = read_until_eof(s, time.monotonic() + a.wait)
    print("status=%d keep_alive=%s closed_after=%s end=%s"
          % (r[0], "yes" if r[1].get("connection") == "keep-alive" else "no",
             "%.2f" % secs if how != "deadline" else "never", how))


def cmd_drain(a):
    """A Connection: close request; after the answer and the server's FIN
    the client keeps its side open and keeps sending a byte every 0.1 s: the
    server must still close for good within its drain time. Prints:
    status= fin=yes|no gone_after=S|never (from the FIN to the reset)."""
    s = connect(a.port)
    s.sendall(get(a.path, "Connection: close\r\n"))
    data, how, _ = read_until_eof(s, time.monotonic() + a.wait)
    parsed = split_head(data)
    status = parsed[0] if parsed else 0
    if how != "eof":
        print("status=%d fin=no gone_after=never" % status)
        return
    start = time.monotonic()
    gone = None
    while gone is None and time.monotonic() - start < a.wait:
        try:
            s.send(b"x")
            s.setblocking(False)
            try:
                s.recv(1)
            except BlockingIOError:
                pass
            s.setblocking(True)
        except OSError:
            gone = time.monotonic() - start
            break
        time.sleep(0.1)
    print("status=%d fin=yes gone_after=%s"
          % (status, "%.2f" % gone if gone is not None else "never"))


def cmd_late(a):
    """GET PATH1 (keep-alive) with a small receive buffer; once its first
    bytes came, and while its body is still on its way, GET PATH2 on the
    same connection; then read everything to EOF. The second request waits
    in the socket until the first answer is done. Prints: answers=N (whole
    responses, one after another) end=eof|reset|deadline."""
    s = connect(a.port, rcvbuf=4096)
    s.sendall(get(a.path1))
    deadline = time.monotonic() + a.wait
    first = s.recv(1024)
    s.sendall(get(a.path2))
    rest, how, _ = read_until_eof(s, deadline)
    data = first + rest
    answers = 0
    while True:
        parsed = split_head(data)
        if parsed is None:
            break
        want = int(parsed[1].get("content-length", "0"))
        if len(parsed[2]) < want:
            break
        answers += 1
        data = parsed[2][want:]
    print("answers=%d end=%s" % (answers, how))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("port", type=int)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("raw")
    r.add_argument("--wait", type=float, default=5)
    r.add_argument("--out")
    r.add_argument("--one", action="store_true")
    c = sub.add_parser("concurrent")
    c.add_argument("path")
    c.add_argument("n", type=int)
    c.add_argument("sha")
    c.add_argument("--head-wait", type=float, default=20)
    c.add_argument("--wait", type=float, default=120)
    c.add_argument("--hold")
    h = sub.add_parser("hold")
    h.add_argument("path")
    h.add_argument("n", type=int)
    h.add_argument("--wait", type=float, default=20)
    h.add_argument("--early-wait", type=float, default=1.5)
    d = sub.add_parser("dribble")
    d.add_argument("path")
    d.add_argument("seconds", type=float)
    sr = sub.add_parser("slowread")
    sr.add_argument("path")
    sr.add_argument("rate", type=int)
    sr.add_argument("--rcvbuf", type=int, default=8192)
    sr.add_argument("--wait", type=float, default=60)
    sr.add_argument("--mark")
    i = sub.add_parser("idle")
    i.add_argument("path")
    i.add_argument("--wait", type=float, default=15)
    dr = sub.add_parser("drain")
    dr.add_argument("path")
    dr.add_argument("--wait", type=float, default=15)
    la = sub.add_parser("late")
    la.add_argument("path1")
    la.add_argument("path2")
    la.add_argument("--wait", type=float, default=15)
    a = p.parse_args()
    {"raw": cmd_raw, "concurrent": cmd_concurrent, "hold": cmd_hold,
     "dribble": cmd_dribble, "slowread": cmd_slowread, "idle": cmd_idle,
     "drain": cmd_drain, "late": cmd_late}[a.cmd](a)


if __name__ == "__main__":
    main()
