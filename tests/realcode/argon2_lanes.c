// Driver for the Argon2 reference implementation of the npm `argon2` package
// (built from its own sources by run_realcode.py). Argon2 fills its memory
// matrix lane by lane, one pthread per lane and slice, and each block reads a
// pseudo-random earlier block, often of another lane: real cross-thread
// access to one large heap object.
//   argon2_lanes kat               RFC 9106 known answers (4 lanes, 4 threads)
//   argon2_lanes hash [MEMORY_KIB]  one argon2id hash, 4 lanes, default 64 MiB
#include <argon2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// RFC 9106 section 5 test vectors: t=3, m=32 KiB, p=4 lanes (threads),
// password 32 x 0x01, salt 16 x 0x02, secret 8 x 0x03, associated data 12 x 0x04.
static const struct {
  argon2_type type;
  const char *name;
  uint8_t tag[32];
} kRfc9106[] = {
    {Argon2_d, "argon2d",
     {0x51, 0x2b, 0x39, 0x1b, 0x6f, 0x11, 0x62, 0x97, 0x53, 0x71, 0xd3, 0x09, 0x19, 0x73, 0x42, 0x94,
      0xf8, 0x68, 0xe3, 0xbe, 0x39, 0x84, 0xf3, 0xc1, 0xa1, 0x3a, 0x4d, 0xb9, 0xfa, 0xbe, 0x4a, 0xcb}},
    {Argon2_i, "argon2i",
     {0xc8, 0x14, 0xd9, 0xd1, 0xdc, 0x7f, 0x37, 0xaa, 0x13, 0xf0, 0xd7, 0x7f, 0x24, 0x94, 0xbd, 0xa1,
      0xc8, 0xde, 0x6b, 0x01, 0x6d, 0xd3, 0x88, 0xd2, 0x99, 0x52, 0xa4, 0xc4, 0x67, 0x2b, 0x6c, 0xe8}},
    {Argon2_id, "argon2id",
     {0x0d, 0x64, 0x0d, 0xf5, 0x8d, 0x78, 0x76, 0x6c, 0x08, 0xc0, 0x37, 0xa3, 0x4a, 0x8b, 0x53, 0xc9,
      0xd0, 0x1e, 0xf0, 0x45, 0x2d, 0x75, 0xb6, 0x5e, 0xb5, 0x25, 0x20, 0xe9, 0x6b, 0x01, 0xe6, 0x59}},
};

static int known_answers(void) {
  int failed = 0;
  for (size_t i = 0; i < sizeof kRfc9106 / sizeof kRfc9106[0]; i++) {
    uint8_t pwd[32], salt[16], secret[8], ad[12], out[32];
    memset(pwd, 1, sizeof pwd);
    memset(salt, 2, sizeof salt);
    memset(secret, 3, sizeof secret);
    memset(ad, 4, sizeof ad);
    argon2_context ctx = {0};
    ctx.out = out;
    ctx.outlen = sizeof out;
    ctx.pwd = pwd;
    ctx.pwdlen = sizeof pwd;
    ctx.salt = salt;
    ctx.saltlen = sizeof salt;
    ctx.secret = secret;
    ctx.secretlen = sizeof secret;
    ctx.ad = ad;
    ctx.adlen = sizeof ad;
    ctx.t_cost = 3;
    ctx.m_cost = 32;
    ctx.lanes = 4;
    ctx.threads = 4;
    ctx.version = ARGON2_VERSION_13;
    int rc = argon2_ctx(&ctx, kRfc9106[i].type);
    int ok = rc == ARGON2_OK && memcmp(out, kRfc9106[i].tag, sizeof out) == 0;
    printf("rfc9106 %s: %s\n", kRfc9106[i].name, ok ? "ok" : "MISMATCH");
    if (!ok) {
      printf("  status %s, tag ", argon2_error_message(rc));
      for (size_t b = 0; b < sizeof out; b++) printf("%02x", out[b]);
      printf("\n");
      failed = 1;
    }
  }
  return failed;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "kat") == 0) return known_answers();
  // The workload: 4 lanes filled by 4 threads per slice over a memory_kib matrix.
  uint32_t memory_kib = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 65536;
  const char *pwd = "numaperf real code";
  const char *salt = "lanes-and-slices";
  char encoded[256];
  int rc = argon2id_hash_encoded(3, memory_kib, 4, pwd, strlen(pwd), salt, strlen(salt), 32,
                                 encoded, sizeof encoded);
  printf("%s\n", rc == ARGON2_OK ? encoded : argon2_error_message(rc));
  return rc == ARGON2_OK ? 0 : 1;
}
