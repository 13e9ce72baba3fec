using System.ComponentModel;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace DivCon.Scheduling;

public static partial class ThreadAffinity
{
    /// <summary>
    /// kernel32's affinity functions. A mask is one pointer-sized word (KAFFINITY) covering the processors of one
    /// processor group; only the process's current group is used, so at most 64 processors.
    /// </summary>
    [SupportedOSPlatform("windows")]
    internal static partial class Windows
    {
        internal static int[] GetProcessAffinity()
        {
            if (!GetProcessAffinityMask(GetCurrentProcess(), out nuint processMask, out _))
            {
                throw LastError("GetProcessAffinityMask");
            }

            // Both masks are zero when the process has threads in several processor groups; then report the group
            // of the calling thread, the only one SetThreadAffinityMask can address from here.
            if (processMask == 0)
            {
                if (!GetThreadGroupAffinity(GetCurrentThread(), out GroupAffinity affinity))
                {
                    throw LastError("GetThreadGroupAffinity");
                }

                processMask = affinity.Mask;
            }

            return ToProcessorIds(processMask);
        }

        internal static int[] GetCurrentThreadAffinity()
        {
            if (!GetThreadGroupAffinity(GetCurrentThread(), out GroupAffinity affinity))
            {
                throw LastError("GetThreadGroupAffinity");
            }

            return ToProcessorIds(affinity.Mask);
        }

        /// <summary>Sets the calling thread's mask. The ids are already validated against the process mask, so each is below the word size.</summary>
        internal static void SetCurrentThreadAffinity(IReadOnlyList<int> processorIds)
        {
            nuint mask = 0;
            foreach (int id in processorIds)
            {
                mask |= (nuint)1 << id;
            }

            if (SetThreadAffinityMask(GetCurrentThread(), mask) == 0)
            {
                throw LastError($"SetThreadAffinityMask to processors {CpuList.Format(processorIds)}");
            }
        }

        private static int[] ToProcessorIds(nuint mask)
        {
            var ids = new List<int>();
            for (ulong bits = mask; bits != 0; bits &= bits - 1)
            {
                ids.Add(System.Numerics.BitOperations.TrailingZeroCount(bits));
            }

            return ids.ToArray();
        }

        private static Win32Exception LastError(string what)
        {
            int error = Marshal.GetLastPInvokeError();
            return new Win32Exception(error, $"{what} failed: {Marshal.GetPInvokeErrorMessage(error)} (error {error}).");
        }

        /// <summary>GROUP_AFFINITY: KAFFINITY Mask; WORD Group; WORD Reserved[3].</summary>
        [StructLayout(LayoutKind.Sequential)]
        private struct GroupAffinity
        {
            public nuint Mask;
            public ushort Group;
            public ushort Reserved0;
            public ushort Reserved1;
            public ushort Reserved2;
        }

        [LibraryImport("kernel32.dll")]
        private static partial nint GetCurrentProcess();

        [LibraryImport("kernel32.dll")]
        private static partial nint GetCurrentThread();

        [LibraryImport("kernel32.dll", SetLastError = true)]
        [return: MarshalAs(UnmanagedType.Bool)]
        private static partial bool GetProcessAffinityMask(nint process, out nuint processAffinityMask, out nuint systemAffinityMask);

        [LibraryImport("kernel32.dll", SetLastError = true)]
        [return: MarshalAs(UnmanagedType.Bool)]
        private static partial bool GetThreadGroupAffinity(nint thread, out GroupAffinity groupAffinity);

        [LibraryImport("kernel32.dll", SetLastError = true)]
        private static partial nuint SetThreadAffinityMask(nint thread, nuint threadAffinityMask);
    }
}
