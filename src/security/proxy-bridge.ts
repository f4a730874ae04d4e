/**
 * The bridge that brings cairn's network proxy into a sandbox without a
 * network (#30): a small program run as the sandbox's command. Inside the
 * command's own network namespace it listens on 127.0.0.1:PORT, forwards each
 * connection to the proxy's unix socket (bound into the sandbox), and runs the
 * real command with the proxy variables pointing at it.
 *
 * Perl where there is one (perl-base is part of every Debian system): it
 * starts in a few milliseconds of CPU where Node takes over 100 on a slow
 * machine (bench/RESULTS.md); its listener leaves the command's process tree
 * (double fork) and the command replaces the bridge (exec), so the command's
 * own `wait` and exit status are untouched. Node otherwise: it runs the
 * command as its child and exits as it does. The program is written once into
 * cairn's sandbox folder (visible, read-only, in every sandbox).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The port the bridge listens on inside the command's network namespace (its own loopback: no clash with the host). */
export const bridgePort = 3128;

const bridgeSource = `"use strict";
// cairn's network bridge (src/security/proxy-bridge.ts): 127.0.0.1:PORT -> the proxy's unix socket, then the command.
const net = require("node:net");
const { spawn } = require("node:child_process");
const [socketPath, port, program, ...args] = process.argv.slice(2);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
  client.pipe(upstream).pipe(client);
});
server.on("error", (error) => {
  process.stderr.write("cairn: the sandbox's network bridge could not start: " + error.message + "\\n");
  process.exit(125);
});
server.listen(Number(port), "127.0.0.1", () => {
  const child = spawn(program, args, { stdio: "inherit" });
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("error", (error) => {
    process.stderr.write("cairn: " + program + ": " + error.message + "\\n");
    process.exit(127);
  });
  child.on("exit", (code, signal) => process.exit(code === null ? 128 + (require("node:os").constants.signals[signal] || 1) : code));
});
`;

const perlBridgeSource = `# cairn's network bridge (src/security/proxy-bridge.ts): 127.0.0.1:PORT -> the proxy's unix socket, then the command.
use strict;
use IO::Socket::INET;
use IO::Socket::UNIX;
use IO::Select;
my ($path, $port, @command) = @ARGV;
my $server = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => $port, Listen => 128, ReuseAddr => 1)
  or do { print STDERR "cairn: the sandbox's network bridge could not start: $!\\n"; exit 125 };
sub relay {
  my ($left, $right) = @_;
  my $select = IO::Select->new($left, $right);
  my $buffer;
  while ($select->count > 0) {
    for my $from ($select->can_read) {
      my $to = $from == $left ? $right : $left;
      my $read = sysread($from, $buffer, 65536);
      if (!$read) { shutdown($to, 1); $select->remove($from); next; }
      my $offset = 0;
      while ($offset < $read) { my $written = syswrite($to, $buffer, $read - $offset, $offset); return unless defined $written; $offset += $written; }
    }
  }
}
my $first = fork();
die "cairn: the sandbox's network bridge could not fork: $!\\n" unless defined $first;
if ($first == 0) {
  # The listener, in a grandchild: outside the command's process tree (the sandbox ends it with the command).
  exit 0 if fork();
  $SIG{CHLD} = "IGNORE";
  # The command's output pipes are its own: the listener holds none of them open.
  open(STDIN, "<", "/dev/null");
  open(STDOUT, ">", "/dev/null");
  open(STDERR, ">", "/dev/null");
  while (1) {
    my $client = $server->accept() or next;
    my $pid = fork();
    if (defined $pid && $pid == 0) {
      close $server;
      my $upstream = IO::Socket::UNIX->new(Peer => $path, Type => SOCK_STREAM) or exit 1;
      relay($client, $upstream);
      exit 0;
    }
    close $client;
  }
}
waitpid($first, 0);
close $server;
exec { $command[0] } @command or do { print STDERR "cairn: $command[0]: $!\\n"; exit 127 };
`;

const written = new Set<string>();

function writeOnce(file: string, source: string): string {
  if (written.has(file)) return file;
  let current: string | undefined;
  try {
    current = readFileSync(file, "utf8");
  } catch {
    current = undefined;
  }
  if (current !== source) {
    mkdirSync(join(file, ".."), { recursive: true, mode: 0o700 });
    writeFileSync(file, source, { mode: 0o644 });
  }
  written.add(file);
  return file;
}

const perl = ["/usr/bin/perl", "/bin/perl"].find((candidate) => existsSync(candidate));

/** How to start the bridge (program and its script, written into `sandboxFolder` when missing or different): the arguments then follow. Perl where there is one; `runtime` chooses (the benchmark compares them). */
export function bridgeProgram(sandboxFolder: string, runtime: "perl" | "node" = perl === undefined ? "node" : "perl"): { program: string; script: string } {
  if (runtime === "perl" && perl !== undefined) return { program: perl, script: writeOnce(join(sandboxFolder, "network-bridge.pl"), perlBridgeSource) };
  return { program: process.execPath, script: writeOnce(join(sandboxFolder, "network-bridge.cjs"), bridgeSource) };
}

/** The variables that send a command's traffic through the bridge; loopback itself stays direct (the command's own servers). */
export function proxyEnvironment(): Record<string, string> {
  const address = `http://127.0.0.1:${bridgePort}`;
  const direct = "localhost,127.0.0.1,::1";
  return {
    HTTP_PROXY: address,
    HTTPS_PROXY: address,
    ALL_PROXY: address,
    NO_PROXY: direct,
    http_proxy: address,
    https_proxy: address,
    all_proxy: address,
    no_proxy: direct,
  };
}
