namespace DivCon.Simulation;

/// <summary>
/// The simulator's own pseudo-random generator: xoshiro256** (Blackman &amp; Vigna) seeded through SplitMix64, so a
/// seed gives the same sequence on every runtime and platform (<see cref="Random"/> with a seed promises no such
/// thing across .NET versions). Not thread-safe; the simulator is single-threaded.
/// </summary>
public sealed class SimRandom
{
    private ulong _s0, _s1, _s2, _s3;

    /// <summary>Creates a generator whose state is four SplitMix64 outputs from <paramref name="seed"/>.</summary>
    public SimRandom(ulong seed)
    {
        ulong x = seed;
        _s0 = SplitMix64(ref x);
        _s1 = SplitMix64(ref x);
        _s2 = SplitMix64(ref x);
        _s3 = SplitMix64(ref x);
    }

    /// <summary>One SplitMix64 step: advances <paramref name="state"/> and returns the mixed output.</summary>
    public static ulong SplitMix64(ref ulong state)
    {
        ulong z = state += 0x9E3779B97F4A7C15UL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }

    /// <summary>A seed derived from <paramref name="seed"/> and a stream index, for independent sub-streams.</summary>
    public static ulong Derive(ulong seed, ulong stream)
    {
        ulong x = seed ^ (stream * 0xD1B54A32D192ED03UL);
        return SplitMix64(ref x);
    }

    /// <summary>The next 64 random bits.</summary>
    public ulong NextUInt64()
    {
        ulong result = RotateLeft(_s1 * 5, 7) * 9;
        ulong t = _s1 << 17;
        _s2 ^= _s0;
        _s3 ^= _s1;
        _s1 ^= _s2;
        _s0 ^= _s3;
        _s2 ^= t;
        _s3 = RotateLeft(_s3, 45);
        return result;
    }

    /// <summary>A uniform double in [0, 1) with 53 random bits.</summary>
    public double NextDouble() => (NextUInt64() >> 11) * (1.0 / (1UL << 53));

    /// <summary>A uniform integer in [0, <paramref name="bound"/>), without modulo bias (Lemire's method).</summary>
    public int Next(int bound)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(bound);
        ulong b = (ulong)bound;
        while (true)
        {
            ulong r = NextUInt64() >> 32;
            ulong m = r * b;
            ulong low = m & 0xFFFFFFFFUL;
            if (low >= b || low >= (0x1_0000_0000UL - b) % b)
            {
                return (int)(m >> 32);
            }
        }
    }

    private static ulong RotateLeft(ulong x, int k) => (x << k) | (x >> (64 - k));
}
