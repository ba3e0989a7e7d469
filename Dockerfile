# syntax=docker/dockerfile:1
# conform in a container:  docker build -t conform .  then  docker run --rm -e CONFORM_API_KEY conform --target https://…
# The image installs the package exactly as `npm pack` builds it, so it runs what `npx conform` runs.

FROM node:20-bookworm-slim AS pack
WORKDIR /src
COPY . .
RUN npm pack --silent && mv conform-*.tgz conform.tgz

# bookworm-slim rather than alpine: glibc, the platform the Pact verifier's native library and the rest
# of the dependencies are tested on.
FROM node:20-bookworm-slim
ENV NO_UPDATE_NOTIFIER=1 NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /opt/conform
COPY --from=pack /src/conform.tgz ./
RUN --mount=type=cache,target=/root/.npm npm install --global --omit=dev --no-audit --no-fund ./conform.tgz && rm conform.tgz
# The node user (uid 1000) of the base image. /work is where a mounted conform.config.json and the
# report folder go (docker run -v "$PWD:/work" …); set after USER, BuildKit creates it owned by node.
USER node
WORKDIR /work
ENTRYPOINT ["conform"]
