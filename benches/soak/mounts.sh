# What a soak of a mounted endpoint needs, sourced (after scripts/lib/common.sh) by
# scripts/test.d/45-soak-hosts.sh and benches/soak/all-surfaces.sh:
#   MOUNT_LANES           the `mcp-soak --lane` arguments of a mount: the HTTP lanes but HTTP+SSE (a
#                         mount serves /mcp only); no stdio lane, so no stdio server is started
#   wait_healthy PORT     waits until the app answers GET /health. A mount prints its URL once its
#                         socket listens, before its app has started (uvicorn runs the ASGI
#                         lifespan, which starts the engine, after that), and the descriptors counted
#                         before the first client must be those of the started app
MOUNT_LANES=(--lane "http legacy churn" --lane "http modern" --lane "http cancel" --lane "http listen")

wait_healthy() {
  python3 - "$1" <<'PY'
import sys, time, urllib.request
for _ in range(300):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/health", timeout=5).read()
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit(f"error: the mount on port {sys.argv[1]} did not answer GET /health within 30 s")
PY
}
