// A row of labelled counts on an overview card (search index, media): each
// number is named by its label for screen readers, and carries a data
// attribute the tests read it by.
import { SimpleGrid, Text } from '@mantine/core';

export function StatCounts({ idPrefix, dataAttribute, items }: { idPrefix: string; dataAttribute: string; items: [key: string, label: string, value: number | undefined][] }) {
  return (
    <SimpleGrid cols={items.length}>
      {items.map(([key, label, value]) => (
        <div key={key}>
          <Text size="xs" c="var(--cirrus-muted)" tt="uppercase" fw={600} id={`${idPrefix}-${key}`}>
            {label}
          </Text>
          <Text fz={22} fw={700} {...{ [dataAttribute]: key }} aria-labelledby={`${idPrefix}-${key}`}>
            {value ?? '…'}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}
