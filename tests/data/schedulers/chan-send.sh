#!/bin/sh
# Hostile (finding 3), the sender: leaves its input's first line where a
# classmate could pick it up (System V shared memory, /dev/shm, /tmp,
# /var/tmp, an abstract unix socket held open 2 s); exits 1 a second
# later.
line=$(head -n 1 "$1")
ipcmk -M 4096 -p 0666 >/dev/null 2>&1
for d in /dev/shm /tmp /var/tmp; do
  printf '%s\n' "$line" > "$d/course-channel" 2>/dev/null && chmod 666 "$d/course-channel" 2>/dev/null
done
python3 -c "
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind('\0course-channel'); s.listen(4); s.settimeout(2)
try:
    c, _ = s.accept(); c.sendall(sys.argv[1].encode())
except OSError:
    pass
" "$line" > /dev/null 2>&1 &
sleep 1
exit 1
