#ifndef CSPAWN_SHIM_H
#define CSPAWN_SHIM_H
// Glibc functions that Swift's Glibc module leaves out (its headers are read without
// _GNU_SOURCE): a pipe made close-on-exec at once, so a child spawned by another thread meanwhile
// cannot inherit it, and a posix_spawn child's working directory and the closing of every
// descriptor it would inherit above its standard streams (glibc 2.34). Declared as glibc does.
#include <spawn.h>
int pipe2(int pipefd[2], int flags);
int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
#endif
