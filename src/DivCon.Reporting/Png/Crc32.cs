namespace DivCon.Reporting.Png;

/// <summary>CRC-32 as PNG chunks use it (ISO 3309 / ITU-T V.42: reflected polynomial 0xEDB88320, initial value
/// and final XOR 0xFFFFFFFF). Table-driven, one byte at a time: PNG files here are small.</summary>
internal static class Crc32
{
    private const uint Polynomial = 0xEDB88320u;

    private static readonly uint[] s_table = BuildTable();

    private static uint[] BuildTable()
    {
        var table = new uint[256];
        for (uint n = 0; n < 256; n++)
        {
            uint c = n;
            for (int k = 0; k < 8; k++)
            {
                c = (c & 1) != 0 ? Polynomial ^ (c >> 1) : c >> 1;
            }

            table[n] = c;
        }

        return table;
    }

    /// <summary>Continues a running CRC (start with <c>0xFFFFFFFF</c>) over <paramref name="data"/>;
    /// the final CRC is the running value XOR <c>0xFFFFFFFF</c>.</summary>
    public static uint Update(uint running, ReadOnlySpan<byte> data)
    {
        uint c = running;
        foreach (byte b in data)
        {
            c = s_table[(c ^ b) & 0xFF] ^ (c >> 8);
        }

        return c;
    }

    /// <summary>The CRC-32 of <paramref name="data"/>.</summary>
    public static uint Compute(ReadOnlySpan<byte> data) => Update(0xFFFFFFFFu, data) ^ 0xFFFFFFFFu;
}
