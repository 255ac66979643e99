import { css } from 'lit';

export const validationReportStyles = css`
  .summary {
    font-weight: 700;
    margin: 0;
  }
`;
