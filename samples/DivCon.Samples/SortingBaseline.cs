namespace DivCon.Samples;

// The baseline and check shared by the two sorting programs: T_s is a copy plus Array.Sort into a separate array
// (non-destructive, like the programs), made once and reused.
internal sealed class SortingBaseline
{
    private int[]? _sorted;

    public void Run(int[] source)
    {
        int[] sorted = _sorted ??= new int[source.Length];
        Array.Copy(source, sorted, source.Length);
        Array.Sort(sorted);
        HasResult = true;
    }

    public bool HasResult { get; private set; }

    public void Verify(string name, int[] source, int[] parallel)
    {
        if (!HasResult)
        {
            Run(source);
        }

        ReadOnlySpan<int> expected = _sorted;
        if (!expected.SequenceEqual(parallel))
        {
            int at = 0;
            while (at < expected.Length && expected[at] == parallel[at])
            {
                at++;
            }

            throw SampleRun.Mismatch(name, $"first difference at index {at}: {parallel[at]} instead of {expected[at]}.");
        }
    }

    public static int[] GenerateNonNegative(int length, int seed)
    {
        var random = new Random(seed);
        var elements = new int[length];
        for (int i = 0; i < elements.Length; i++)
        {
            elements[i] = random.Next();
        }

        return elements;
    }
}
