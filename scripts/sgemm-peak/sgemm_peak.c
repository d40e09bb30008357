/*
 * sgemm_peak: the machine's float32 GEMM peak, measured with OpenBLAS.
 *
 * strata never links OpenBLAS; this program is the reference its kernel
 * benchmarks are divided by (make bench builds it with gcc when Debian's
 * libopenblas-dev is installed; internal/gemm/gemmbench runs it).
 *
 *   sgemm_peak                      square row-major NN sgemm at 1024..3072,
 *                                   one line per size, then the best
 *   sgemm_peak M N K TA TB          one shape (TA, TB: N or T), row-major
 *
 * Every line reads "sgemm m=.. n=.. k=.. ta=. tb=. gflops=.. threads=..";
 * the last line of the sweep reads "peak gflops=.. threads=..". Each figure
 * is the best of repeated timed runs of at least 0.25 s each (after a warm-up).
 * OPENBLAS_NUM_THREADS picks the thread count (default: all cores).
 *
 * OpenBLAS 0.3.21 (Debian 12) does not know newer Xeons and falls back to its
 * Prescott (SSE3) kernels, a third of what the machine does. Unless
 * OPENBLAS_CORETYPE is set, the program re-executes itself with the core
 * type that matches the CPU's vector units (SkylakeX for AVX-512, Haswell for
 * AVX2) when the detected one is weaker, and names the core on every line.
 */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

char *openblas_get_corename(void);

/* strong reports whether OpenBLAS's core name already uses the CPU's widest
 * vector units. */
static int strong(const char *core, int avx512) {
	const char *k512[] = {"SkylakeX", "Cooperlake", "SapphireRapids", "Zen4", NULL};
	const char *k256[] = {"Haswell", "Zen", "SkylakeX", "Cooperlake", "SapphireRapids", "Zen4", NULL};
	const char **list = avx512 ? k512 : k256;
	for (int i = 0; list[i]; i++)
		if (strcasecmp(core, list[i]) == 0) return 1;
	return 0;
}

static void pick_core(char **argv) {
	if (getenv("OPENBLAS_CORETYPE")) return;
	__builtin_cpu_init();
	int avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
	             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
	int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
	if (!avx512 && !avx2) return;
	if (strong(openblas_get_corename(), avx512)) return;
	setenv("OPENBLAS_CORETYPE", avx512 ? "SkylakeX" : "Haswell", 1);
	execv("/proc/self/exe", argv);
	/* exec failed: go on with the detected core */
}

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double measure(int m, int n, int k, int ta, int tb) {
	float *a = malloc(sizeof(float) * (size_t)m * k);
	float *b = malloc(sizeof(float) * (size_t)k * n);
	float *c = malloc(sizeof(float) * (size_t)m * n);
	if (!a || !b || !c) {
		fprintf(stderr, "sgemm_peak: out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < (size_t)m * k; i++) a[i] = (float)((i * 7) % 13) * 0.1f - 0.6f;
	for (size_t i = 0; i < (size_t)k * n; i++) b[i] = (float)((i * 5) % 11) * 0.1f - 0.5f;
	memset(c, 0, sizeof(float) * (size_t)m * n);
	int lda = ta ? m : k, ldb = tb ? k : n;
	enum CBLAS_TRANSPOSE TA = ta ? CblasTrans : CblasNoTrans, TB = tb ? CblasTrans : CblasNoTrans;
	double flops = 2.0 * m * n * k, best = 0;
	cblas_sgemm(CblasRowMajor, TA, TB, m, n, k, 1, a, lda, b, ldb, 0, c, n); /* warm-up */
	for (int rep = 0; rep < 3; rep++) {
		int iters = 0;
		double t0 = now(), t;
		do {
			cblas_sgemm(CblasRowMajor, TA, TB, m, n, k, 1, a, lda, b, ldb, 0, c, n);
			iters++;
			t = now() - t0;
		} while (t < 0.25);
		double g = flops * iters / t / 1e9;
		if (g > best) best = g;
	}
	free(a);
	free(b);
	free(c);
	return best;
}

int main(int argc, char **argv) {
	pick_core(argv);
	int threads = openblas_get_num_threads();
	const char *core = openblas_get_corename();
	if (argc == 6) {
		int m = atoi(argv[1]), n = atoi(argv[2]), k = atoi(argv[3]);
		int ta = argv[4][0] == 'T', tb = argv[5][0] == 'T';
		if (m <= 0 || n <= 0 || k <= 0) {
			fprintf(stderr, "sgemm_peak: bad shape %s %s %s\n", argv[1], argv[2], argv[3]);
			return 2;
		}
		printf("sgemm m=%d n=%d k=%d ta=%c tb=%c gflops=%.2f threads=%d core=%s\n", m, n, k,
		       ta ? 'T' : 'N', tb ? 'T' : 'N', measure(m, n, k, ta, tb), threads, core);
		return 0;
	}
	if (argc != 1) {
		fprintf(stderr, "usage: sgemm_peak [M N K TA TB]\n");
		return 2;
	}
	double peak = 0;
	int sizes[] = {1024, 2048, 3072};
	for (int i = 0; i < 3; i++) {
		int s = sizes[i];
		double g = measure(s, s, s, 0, 0);
		printf("sgemm m=%d n=%d k=%d ta=N tb=N gflops=%.2f threads=%d core=%s\n", s, s, s, g, threads, core);
		if (g > peak) peak = g;
	}
	printf("peak gflops=%.2f threads=%d core=%s\n", peak, threads, core);
	return 0;
}
