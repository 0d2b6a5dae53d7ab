// What compiled prange loops call at run time: the driver that runs an outlined loop body over
// the thread pool, and the number of partial-result slots a loop must provide.
#pragma once

#include <cstdint>

extern "C" {
/// An outlined prange body: runs iterations [begin, end) as chunk `chunk`, returning 0, or a
/// non-zero status with an exception pending (compiled code's calling convention).
typedef int32_t (*taipan_parallel_body)(void *environment, int64_t begin, int64_t end,
                                        int64_t chunk);

/// Runs `body` over [0, count) on the thread pool, in contiguous chunks (runtime/ThreadPool), and
/// returns once all are done. `*chunks` receives the number of chunk slots used (chunks are
/// numbered from 0; some may be empty). A chunk that failed stops its own iterations; the
/// first failure is raised on the calling thread, and its status returned. Fewer than `grain`
/// iterations run on the calling thread alone, as chunk 0.
int32_t taipan_parallel_for(int64_t count, taipan_parallel_body body, void *environment,
                            int64_t *chunks, int64_t grain);

/// taipan.get_thread_id() and get_num_threads() in compiled code.
int64_t taipan_get_thread_id(void);
int64_t taipan_get_num_threads(void);

/// How many chunk slots a loop needs at most (the pool's maximumChunkCount()).
int64_t taipan_parallel_slot_count(void);
}
