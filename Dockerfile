# syntax=docker/dockerfile:1
# agent-api-conform in a container:  docker build -t agent-api-conform .
#   then  docker run --rm -e CONFORM_API_KEY agent-api-conform --target https://…
# The image installs the package exactly as `npm pack` builds it, so it runs what `npx agent-api-conform` runs.
# Node 24, the active LTS line.

FROM node:24-bookworm-slim AS pack
WORKDIR /src
COPY . .
RUN npm pack --silent && mv agent-api-conform-*.tgz agent-api-conform.tgz

# bookworm-slim rather than alpine: glibc, the platform the Pact verifier's native library and the rest
# of the dependencies are tested on.
FROM node:24-bookworm-slim
ENV NO_UPDATE_NOTIFIER=1 NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /opt/conform
COPY --from=pack /src/agent-api-conform.tgz ./
RUN --mount=type=cache,target=/root/.npm npm install --global --omit=dev --no-audit --no-fund ./agent-api-conform.tgz && rm agent-api-conform.tgz
# The node user (uid 1000) of the base image. /work is where a mounted conform.config.json and the
# report folder go (docker run -v "$PWD:/work" …); set after USER, BuildKit creates it owned by node.
USER node
WORKDIR /work
ENTRYPOINT ["conform"]
