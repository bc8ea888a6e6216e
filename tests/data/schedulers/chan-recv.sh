#!/bin/sh
# Hostile (finding 3), the receiver: looks for what a classmate left (in
# System V IPC, /dev/shm, /tmp, /var/tmp, an abstract unix socket) for
# about a second; answers (validly) only if anything came through, else exits 1.
i=0
while [ $i -lt 15 ]; do
  i=$((i + 1))
  if [ -n "$(ipcs -m 2>/dev/null | awk '$3 != "root" && $1 ~ /^0x/')" ]; then
    sh sequential.sh "$1"; exit 0
  fi
  for d in /dev/shm /tmp /var/tmp; do
    if [ -s "$d/course-channel" ]; then sh sequential.sh "$1"; exit 0; fi
  done
  if python3 -c "
import socket
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(0.2); s.connect('\0course-channel')
assert s.recv(100)
" 2>/dev/null; then
    sh sequential.sh "$1"; exit 0
  fi
  sleep 0.05
done
exit 1
