/*
 * A stand-in for Windows' bcryptprimitives.dll, for running gddls under
 * Debian bookworm's Wine 8, which does not have that DLL. Go's runtime
 * (Go 1.22 and later) loads ProcessPrng from it before main runs; without
 * it a Go program dies at start. This DLL exports only ProcessPrng and
 * fills the buffer from advapi32's RtlGenRandom (SystemFunction036), which
 * Wine does have. scripts/windows/test.sh builds it with mingw-w64 and
 * puts it in the Wine prefix's system32. It is a test fixture: nothing
 * ships it.
 */
#include <windows.h>

/* RtlGenRandom is exported by advapi32 under this name. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

/* ProcessPrng fills data with size random bytes and always succeeds, as
 * the real function documents. */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
	while (size > 0) {
		ULONG n = size > 0x40000000 ? 0x40000000 : (ULONG)size;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		size -= n;
	}
	return TRUE;
}

BOOL WINAPI DllMain(HINSTANCE instance, DWORD reason, LPVOID reserved)
{
	(void)instance;
	(void)reason;
	(void)reserved;
	return TRUE;
}
