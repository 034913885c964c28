#!/bin/sh
while true; do
  ls -la ./inbox
  sleep 30
done
