using System.Runtime.InteropServices;

namespace DivCon.Scheduling;

/// <summary>A counter alone on its cache lines, so writes to it never slow down readers of neighbouring fields.</summary>
[StructLayout(LayoutKind.Explicit, Size = (2 * WorkerCounters.PaddingSize) + 8)]
internal struct PaddedCounter
{
    [FieldOffset(WorkerCounters.PaddingSize)]
    public long Value;
}
