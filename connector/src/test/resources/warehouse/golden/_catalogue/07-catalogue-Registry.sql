IF OBJECT_ID(N'[_].[Registry]', N'U') IS NULL
    CREATE TABLE [_].[Registry] (
        [object_id] varchar(8000) NOT NULL,
        [object_kind] varchar(8000) NOT NULL,
        [declaration_signature] varchar(8000) NOT NULL,
        [structure_signature] varchar(8000) NOT NULL,
        [weaver_version] varchar(8000) NOT NULL,
        [installed_at] datetime2(6) NOT NULL,
        [creation_defaults] varchar(max) NULL
    );
