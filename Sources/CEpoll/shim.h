#ifndef CEPOLL_SHIM_H
#define CEPOLL_SHIM_H
// epoll(7) is part of glibc, but Swift's Glibc module does not include its header.
#include <sys/epoll.h>
#endif
