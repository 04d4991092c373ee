#!/usr/bin/env bash
# The example thumbnail server (Examples/ThumbnailServer, its own package on Hummingbird 2,
# depending on Glimpse by path): a debug build of its product only, then its smoke check
# against nginx on loopback (/health, JPEG, PNG and WebP thumbnails, a bad URL, a refused
# address). The load test against thumbor (loadtest.py without --smoke) is not run here.
set -euo pipefail
cd "$(dirname "$0")/../Examples/ThumbnailServer"
swift build --product ThumbnailServer
python3 loadtest.py --smoke --configuration debug
