namespace DivCon.Samples;

// Shared checks of the sample programs.
internal static class SampleRun
{
    public static void EnsureParallelResult(bool hasResult, string name)
    {
        if (!hasResult)
        {
            throw new InvalidOperationException($"{name}: no successful parallel run to verify; await RunParallelAsync first.");
        }
    }

    public static InvalidOperationException Mismatch(string name, string detail) =>
        new($"{name}: the parallel result differs from the sequential baseline: {detail}");

    // The value for a named size (the programs' size tables); an undefined size is refused like every sample does.
    public static T BySize<T>(ProblemSize size, T small, T medium, T thesis) => size switch
    {
        ProblemSize.Small => small,
        ProblemSize.Medium => medium,
        ProblemSize.Thesis => thesis,
        _ => throw new ArgumentOutOfRangeException(nameof(size), size, "Allowed: Small, Medium, Thesis."),
    };

    public static int CheckLength(long length, string name)
    {
        if (length > Array.MaxLength)
        {
            throw new ArgumentOutOfRangeException(nameof(length), length, $"{name}: at most {Array.MaxLength} elements.");
        }

        return (int)length;
    }
}
