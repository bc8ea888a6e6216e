#!/bin/sh
# Hostile (finding 4): writes 256 MiB into every folder it may write
# (the shared temporary folders, its own), makes System V shared memory
# of 256 MiB, and leaves it all behind; exits 1.
for d in /tmp /var/tmp /dev/shm "$TMPDIR" .; do
  dd if=/dev/zero of="$d/course-fill-$$" bs=1M count=256 2>/dev/null
done
ipcmk -M 268435456 >/dev/null 2>&1
exit 1
