#!/bin/sh
# Hostile: opens a TCP connection to the grader's machine (127.0.0.1) and
# tells whoever listens there its input; only if that works does it print
# a valid schedule.
python3 -c "
import socket, sys
s = socket.create_connection(('127.0.0.1', @PORT@), timeout=2)
s.sendall(open(sys.argv[1], 'rb').read())
" "$1" || exit 1
sh sequential.sh "$1"
