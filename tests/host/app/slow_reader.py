#!/usr/bin/env python3
"""slow_reader.py PORT PATH RATE [MARK]: GET PATH from 127.0.0.1:PORT with a
small receive buffer, reading at about RATE bytes/s. Creates the file MARK
once the first bytes of the answer arrived. Prints the body's byte count and
its sha256 ("N SHA"), however the connection ended."""
import hashlib
import socket
import sys
import time

port, path, rate = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
s.connect(("127.0.0.1", port))
s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
data = b""
step = max(1, rate // 10)
done = False
try:
    while not done:
        got = 0
        while got < step:
            chunk = s.recv(step - got)
            if not chunk:
                done = True
                break
            if not data and len(sys.argv) > 4:
                open(sys.argv[4], "w").close()
            data += chunk
            got += len(chunk)
        time.sleep(0.1)
except ConnectionResetError:
    pass
head, _, body = data.partition(b"\r\n\r\n")
print(len(body), hashlib.sha256(body).hexdigest())
