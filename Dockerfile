# The service image for docker-compose.yml: the same image runs the API and the worker
# (`node dist/apps/worker/src/main.js`). Node 24, the LTS the project runs on (ADR 0090).
FROM node:24-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 downloads a prebuilt binary for Node 24 on linux x64/arm64; the toolchain is
# only its fallback when none fits the platform.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    SVC_DATA_DIR=/app/data
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
CMD ["node", "dist/apps/api/src/main.js"]
