namespace DivCon.Samples;

// Guards a sample program whose parallel runs share outputs (the sorts' arrays, the work-inflation cells, the
// transform's output arrays): a second RunParallelAsync while one is in progress fails with an
// InvalidOperationException instead of corrupting the first run's output.
internal sealed class RunGuard
{
    private int _active; // 1 while a run is in progress: CAS by Enter, Volatile.Write by Exit

    public Exit Enter(string name)
    {
        if (Interlocked.CompareExchange(ref _active, 1, 0) != 0)
        {
            throw new InvalidOperationException(
                $"{name}: a parallel run of this instance is in progress; its runs share their output, so it runs one at a time. " +
                "Await the run first, or use one instance per concurrent run.");
        }

        return new Exit(this);
    }

    public readonly struct Exit(RunGuard guard) : IDisposable
    {
        public void Dispose() => Volatile.Write(ref guard._active, 0);
    }
}
