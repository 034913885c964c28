#!/bin/sh
while true; do
  date >> /tmp/warm.log
done
