# battle-server: multi-stage build, small non-root runtime image.
#   docker build -t battle-server .
#   docker run -p 7878:7878 -v battle-data:/var/lib/battle-server battle-server

FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release -p battle-server --locked \
    && strip target/release/battle-server

FROM debian:bookworm-slim
RUN groupadd --system battle \
    && useradd --system --gid battle --home-dir /var/lib/battle-server --shell /usr/sbin/nologin battle \
    && mkdir -p /var/lib/battle-server \
    && chown battle:battle /var/lib/battle-server
COPY --from=build /src/target/release/battle-server /usr/local/bin/battle-server
USER battle
ENV BATTLE_LISTEN=0.0.0.0:7878 \
    BATTLE_DATA_DIR=/var/lib/battle-server \
    BATTLE_LOG_FORMAT=json
VOLUME ["/var/lib/battle-server"]
EXPOSE 7878
# SIGTERM drains the server: close frames 1001, battles committed, exit 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/battle-server"]
